import os
import sys

from verify.cli.main import main

code = main()
if code == 130:
    # Native solvers (Clarabel, HiGHS) install SIGINT handlers that can re-raise the signal at
    # interpreter exit; every report is already written atomically, so leave without finalisers.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)
sys.exit(code)
