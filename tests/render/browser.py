"""A headless Chromium driven over the DevTools protocol (a websocket), for the HTML tests:
load a page at a width, collect its console messages and requests, evaluate, screenshot."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

#: Chromium as root in a container: no sandbox, no GPU, nothing fetched in the background.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, profile: Path) -> None:
        exe = chromium()
        assert exe, "chromium is not installed (.ci/run installs the Debian package)"
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.is_file() and port_file.read_text().count("\n") >= 1):
            assert self.proc.poll() is None, "chromium exited at once"
            assert time.monotonic() < deadline, "chromium did not start in 60 s"
            time.sleep(0.1)
        port = port_file.read_text().split("\n")[0].strip()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            targets = json.load(r)
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60,
                                              suppress_origin=True)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                assert "error" not in message, (method, message["error"])
                return dict(message.get("result", {}))
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(e["method"] == event for e in self.events):
            assert time.monotonic() < deadline, f"no {event} in {timeout} s"
            message = json.loads(self.ws.recv())
            if "method" in message:
                self.events.append(message)

    def load(self, url: str, width: int, mobile: bool) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=mobile)
        self.events = []
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.call("Runtime.evaluate", expression="1", awaitPromise=True)  # let events arrive

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, log entries of the page."""
        out = []
        for e in self.events:
            p = e["params"]
            if e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning",
                                                                           "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append(p["entry"]["text"])
        return out

    def requests(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def screenshot(self) -> bytes:
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        return base64.b64decode(data["data"])

    def pdf_pages(self) -> int:
        """Pages of the page printed on A4 (its print stylesheet applies)."""
        data = self.call("Page.printToPDF", paperWidth=8.27, paperHeight=11.69,
                         preferCSSPageSize=True, displayHeaderFooter=False)
        pdf = base64.b64decode(data["data"])
        import re

        return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def keep_screenshot(name: str, png: bytes) -> None:
    """With STRATAGEM_SCREENSHOTS=DIR the screenshots are kept there, to look at."""
    folder = os.environ.get("STRATAGEM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)
