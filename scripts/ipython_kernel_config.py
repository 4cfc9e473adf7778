"""IPython kernel configuration for this project's virtual environment.

scripts/setup.sh copies this file to .venv/etc/ipython/ipython_kernel_config.py,
where every kernel started from .venv reads it (the book build's, nbmake's,
JupyterLab's).

It drops one log line, and only that one: "Kernel is running over TCP without
encryption ...", which ipykernel 7 prints once per kernel start, so once per
notebook in the build log. The kernels here listen on 127.0.0.1 only and the
reader can do nothing about the notice. Every other kernel message (and every
warning a cell raises, which is a cell output, not a log line) is kept.
"""

import logging


class _DropPlainTcpNotice(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Kernel is running over TCP without encryption")


c = get_config()  # noqa: F821 (provided by IPython when it loads this file)
c.IPKernelApp.logging_config = {
    "filters": {"drop_plain_tcp_notice": {"()": _DropPlainTcpNotice}},
    "handlers": {"console": {"filters": ["drop_plain_tcp_notice"]}},
}
