import os
import sys

from verify.cli.main import main

code = main()
if code == 130:
    # Native solvers (Clarabel, HiGHS) install SIGINT handlers that can re-raise the signal at
    # interpreter exit; every report is already written atomically, so leave without finalisers.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)
sys.exit(code)
