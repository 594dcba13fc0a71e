# SPDX-License-Identifier: BSD-2-Clause
"""Pure-Python stand-in for the rpds (rpds-py) module.

dtschema >= 2023.9 (what Linux 7.x's dt_binding_check wants) needs
jsonschema >= 4.18, which with `referencing` needs rpds-py: a compiled
extension that Debian builds only for the Python of trixie and later
(3.13+), while bookworm runs 3.11.  jsonschema and referencing use only
a few persistent-collection operations of it, implemented here by
copying plain dicts, frozensets and tuples.  That is O(n) per insert,
where rpds is O(log n); a schema registry of a few thousand entries
still builds in well under a second.

Only scripts/registry/dtschema.sh puts this directory on PYTHONPATH, for
the dtschema it unpacks; nothing else imports it.
"""

__all__ = ["HashTrieMap", "HashTrieSet", "List"]


class HashTrieMap:
    __slots__ = ("_d", "_hash")

    def __init__(self, value=None, **kwargs):
        d = dict(value._d if isinstance(value, HashTrieMap) else (value or ()))
        d.update(kwargs)
        self._d = d
        self._hash = None

    @classmethod
    def convert(cls, value):
        return value if isinstance(value, HashTrieMap) else cls(value)

    def __class_getitem__(cls, item):
        return cls

    @classmethod
    def _of(cls, d):
        m = cls.__new__(cls)
        m._d = d
        m._hash = None
        return m

    def insert(self, key, value):
        d = dict(self._d)
        d[key] = value
        return self._of(d)

    def remove(self, key):
        if key not in self._d:
            raise KeyError(key)
        d = dict(self._d)
        del d[key]
        return self._of(d)

    def discard(self, key):
        return self.remove(key) if key in self._d else self

    def update(self, *others, **kwargs):
        d = dict(self._d)
        for o in others:
            d.update(o._d if isinstance(o, HashTrieMap) else o)
        d.update(kwargs)
        return self._of(d)

    def get(self, key, default=None):
        return self._d.get(key, default)

    def __getitem__(self, key):
        return self._d[key]

    def __contains__(self, key):
        return key in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def __eq__(self, other):
        if isinstance(other, HashTrieMap):
            return self._d == other._d
        if isinstance(other, dict):
            return self._d == other
        return NotImplemented

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __repr__(self):
        return f"HashTrieMap({self._d!r})"


class HashTrieSet:
    __slots__ = ("_s",)

    def __init__(self, value=()):
        self._s = frozenset(value)

    def __class_getitem__(cls, item):
        return cls

    def insert(self, value):
        return HashTrieSet(self._s | {value})

    def remove(self, value):
        if value not in self._s:
            raise KeyError(value)
        return HashTrieSet(self._s - {value})

    def discard(self, value):
        return HashTrieSet(self._s - {value})

    def update(self, *others):
        s = set(self._s)
        for o in others:
            s.update(o)
        return HashTrieSet(s)

    def __contains__(self, value):
        return value in self._s

    def __iter__(self):
        return iter(self._s)

    def __len__(self):
        return len(self._s)

    def __bool__(self):
        return bool(self._s)

    def __eq__(self, other):
        if isinstance(other, HashTrieSet):
            return self._s == other._s
        return NotImplemented

    def __hash__(self):
        return hash(self._s)

    def __repr__(self):
        return f"HashTrieSet({set(self._s)!r})"


class List:
    """A persistent singly linked list: push_front, first, rest."""
    __slots__ = ("_t",)

    def __init__(self, value=()):
        self._t = tuple(value)

    def __class_getitem__(cls, item):
        return cls

    def push_front(self, value):
        return List((value,) + self._t)

    @property
    def first(self):
        if not self._t:
            raise IndexError("empty list has no first element")
        return self._t[0]

    @property
    def rest(self):
        return List(self._t[1:])

    def __iter__(self):
        return iter(self._t)

    def __len__(self):
        return len(self._t)

    def __bool__(self):
        return bool(self._t)

    def __eq__(self, other):
        if isinstance(other, List):
            return self._t == other._t
        return NotImplemented

    def __hash__(self):
        return hash(self._t)

    def __repr__(self):
        return f"List({list(self._t)!r})"
