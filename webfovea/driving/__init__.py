"""The task driver: one task from its browser to its result.json, whoever decides the steps.

`agent.run_task` (a model decides) and the MCP server (a client decides) both drive a task
through `TaskDriver`; `endings.STOP_STATUS` is the one table from a stop reason to a status.
"""

from webfovea.driving.driver import BrowserSource, DriverSettings, TaskDriver
from webfovea.driving.endings import STOP_STATUS, Ending

__all__ = ["STOP_STATUS", "BrowserSource", "DriverSettings", "Ending", "TaskDriver"]
