"""Allow `python -m burgee`."""

from burgee.cli import main

raise SystemExit(main())
