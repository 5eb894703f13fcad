"""The API's routes, one router per resource: ``books`` (the library and the books' text),
``questions`` (asking, answers, progress) and ``status`` (health, presets and limits)."""
