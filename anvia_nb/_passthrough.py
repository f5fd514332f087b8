"""``Passthrough``: a read-only property that gives one field of the object a wrapper holds
(``Tool.name`` is ``tool.info.name``), declared in one line with its docstring.

A wrapper that shows the fields of what it wraps (a tool its listing, a result view its call's
outcome) would otherwise write the same four lines for each field. A ``Passthrough`` is a
``property``, so IPython's ``tool.name?`` shows its docstring without reading it; it reads with
``operator.attrgetter``, as fast as a written property; its type parameter is the type mypy gives
the attribute, and ``tests/package/test_passthrough.py`` holds it to the type of the field it
reads. The standard library only.

Examples
--------
>>> class Tool:
...     name = Passthrough[str]("info.name", "The tool's name, as listed.")
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar, overload

__all__ = ["Passthrough"]

Field = TypeVar("Field")


class Passthrough(property, Generic[Field]):
    """A read-only property reading ``path`` (``"info.name"``) of the instance.

    Parameters
    ----------
    path : str
        The dotted path read from the instance: the attribute holding the wrapped object, then
        the wrapped object's field.
    doc : str
        The property's docstring (what ``?`` shows).
    """

    def __init__(self, path: str, doc: str) -> None:
        super().__init__(attrgetter(path))
        self.path = path
        self.__doc__ = doc  # a property subclass keeps its doc in its own dict, not in property's slot

    if TYPE_CHECKING:  # for mypy only: at run time property's own __get__ (in C) reads

        @overload
        def __get__(self, instance: None, owner: type | None = None, /) -> Passthrough[Field]: ...

        @overload
        def __get__(self, instance: object, owner: type | None = None, /) -> Field: ...

        def __get__(self, instance: object, owner: type | None = None, /) -> Any: ...  # any: the overloads say

        def __set__(self, instance: object, value: NoReturn, /) -> None: ...  # read-only, as a written property
