import os.path as run
from json import dumps as _dumps

from burgee import command

try:
    from json import loads as main
except ImportError:
    main = None

for _text in ():
    pass


@command(effects="read_only")
def greet(name: str = "world") -> str:
    """Helpers imported under names the generated module uses for itself."""
    return _dumps(run.join(name)) + str(main)
