"""Named registries: the seam where a part of ClueWeaver with several interchangeable kinds (segment
sources, backends) lets a new kind plug in with one ``register`` call instead of edits to every
list of names.

A registry keeps its items in registration order, so whatever it lists (command-line choices,
legends) reads the same on every run; a lookup of an unknown name fails naming the known ones.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from clueweaver.core.errors import ClueWeaverError

T = TypeVar("T")


class RegistryError(ClueWeaverError, ValueError):
    """A name looked up but never registered, or registered twice; the message names the known names."""


class Registry(Generic[T]):
    """Items of one kind by name; ``what`` names the kind in error messages ("segment source")."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[str, T] = {}

    def register(self, name: str, item: T) -> T:
        """Add ``item`` under ``name``; a name already taken is an error, so a plug-in cannot
        silently replace another."""
        if name in self._items:
            raise RegistryError(f"{self.what} {name!r} is already registered")
        self._items[name] = item
        return item

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise RegistryError(f"unknown {self.what} {name!r}; use one of {', '.join(self._items)}") from None

    def names(self) -> tuple[str, ...]:
        return tuple(self._items)

    def unregister(self, name: str) -> None:
        """Remove ``name`` (an unknown one is an error, as for ``get``): what a test that
        registered a stand-in calls when it is done."""
        self.get(name)
        del self._items[name]
