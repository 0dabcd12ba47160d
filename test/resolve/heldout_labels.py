"""Shared by the builders of the whole-source held-out sets (heldout-build-2.py, heldout-build-3.py; issue 32
item 6): the label constructors and the writer of the JSON files. See HELDOUT.md."""
import json


def E(*keys):
    """The name means this entity (a parent follows a sub-designation)."""
    return {'kind': 'entity', 'keys': list(keys)}


def A(*keys):
    """The name is shared by these entities, most likely first."""
    return {'kind': 'ambiguous', 'keys': list(keys)}


NO = {'kind': 'no_entity'}


def write_sets(out, named_sets):
    """Writes each (file name, set) to the folder `out`, as the other held-out files are written."""
    for name, s in named_sets:
        with open(f'{out}/{name}', 'w', encoding='utf-8') as f:
            json.dump(s, f, ensure_ascii=False, indent=1)
            f.write('\n')
        print(name, len(s['queries']), 'queries', sum(q['weight'] for q in s['queries']), 'weight')
