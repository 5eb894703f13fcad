import sys

from clueweaver.cli import main

sys.exit(main())
