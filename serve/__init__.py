"""The ClueWeaver local server and its reading-room page (``clueweaver serve``); see ``serve.app``."""
