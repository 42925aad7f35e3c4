"""The `forms` document: each record a handler asks for with `ctx.form` (`read/forms.py`), its
fields as the tool asks them (`runtime/core/fields._form_fields` reads it).

`forms()`, the `forms` document (only in a program whose handlers call `ctx.form`): each form's
fields as the tool asks them, an Enum member's title from its name (`title()`);
`render/module.py` also writes each form's `_to_FORM` converter, as for an input record.
"""

from __future__ import annotations

import re

from burgee.model.ir import Program
from burgee.model.kinds import FORM_KINDS


def title(member: str) -> str:
    """An Enum member's title, from its name: `FIRST_OPTION` -> "First option"."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", member).replace("_", " ").split()
    text = " ".join(words).lower()
    return text[:1].upper() + text[1:]


def forms(program: Program) -> dict[str, list[list[object]]]:
    """Each form's fields: [name, title, description, kind, several, choices, titles,
    required] (a field as `fields.py` describes it, but its default: the class's)."""
    records = {record.name: record for record in program.records}
    members = {enum.name: enum.members for enum in program.enums}
    found: dict[str, list[list[object]]] = {}
    for name in program.forms:
        fields: list[list[object]] = []
        for field in records[name].fields:
            several = field.type.kind == "list" and field.type.item is not None
            one = field.type.item if several and field.type.item is not None else field.type
            titles = [title(member) for member, _ in members.get(one.name or "", ())]
            kind = FORM_KINDS.get(one.kind, "string")
            choices = [str(choice) for choice in one.choices]
            row = [field.name, field.name, field.help, kind, several, choices, titles]
            fields.append([*row, field.required])
        found[name] = fields
    return found
