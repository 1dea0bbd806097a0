"""Serves the JupyterLab 3.6 application in build/ (made by build.mjs) with
Debian's jupyterlab_server (LabServerApp) on jupyter_server 1.x: the lab page,
settings, themes, and the Jupyter REST and websocket APIs the notebook uses.

    python3 server.py --port 8900 --root DIR

No token (the test binds 127.0.0.1 only); the kernelspecs are whatever
JUPYTER_DATA_DIR / JUPYTER_PATH name, as for any Jupyter server.
"""
import argparse
import os
import sys
import tempfile

from jupyterlab_server import LabServerApp

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "build")


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": KernelScopeTestLab}]


class KernelScopeTestLab(LabServerApp):
    """JupyterLab's application shell as built in build/, at /lab."""

    name = "kernelscope_test_lab"
    extension_url = "/lab"
    default_url = "/lab"
    app_url = "/lab"
    load_other_extensions = False
    app_name = "JupyterLab"
    app_version = "3.6"
    app_settings_dir = os.path.join(BUILD, "application_settings")
    schemas_dir = os.path.join(BUILD, "schemas")
    static_dir = BUILD
    templates_dir = os.path.join(HERE, "templates")
    themes_dir = os.path.join(BUILD, "themes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8900)
    ap.add_argument("--root", required=True, help="the notebook directory")
    a = ap.parse_args()
    state = tempfile.mkdtemp(prefix="ks-lab-")
    argv = [
        f"--ServerApp.port={a.port}",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.open_browser=False",
        "--ServerApp.allow_root=True",
        "--ServerApp.port_retries=0",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={a.root}",
        f"--KernelScopeTestLab.user_settings_dir={os.path.join(state, 'settings')}",
        f"--KernelScopeTestLab.workspaces_dir={os.path.join(state, 'workspaces')}",
    ]
    KernelScopeTestLab.launch_instance(argv=argv)


if __name__ == "__main__":
    sys.exit(main())
