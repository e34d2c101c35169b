#!/usr/bin/env python3
"""tools/trace_screenshot.py — a screenshot of a WEFT_TRACE file in Chromium's trace viewer (the
catapult viewer that chrome://tracing serves), zoomed to the slices of one name, for the picture
in docs/ (README, "Seeing what ran"). A docs step: no test, build or install runs it.

It drives /usr/bin/chromium headless over the DevTools protocol on a pipe
(--remote-debugging-pipe; Python's standard library only): opens PAGE, an HTML page holding the
trace viewer with the trace loaded (Debian's chromium is built without chrome://tracing, so the
page is the trace made standalone by catapult's tracing/bin/trace2html: see README), waits for
the viewer, sets the visible time range to the slices whose name starts with --name (default
"fused", Weft's fused runs) plus --pad of it each side, selects the first of them so that the
panel below shows its arguments, and writes a PNG of the window.

Usage: trace_screenshot.py PAGE.html -o OUT.png [--name PREFIX] [--pad FRACTION]
                           [--size 1600x900] [--panel PX] [--no-select] [--chromium PATH]
"""
import argparse
import base64
import fcntl
import json
import os
import pathlib
import signal
import tempfile
import time


class Chromium:
    """A headless Chromium and one page in it, spoken to with DevTools protocol messages: JSON
    ending in a NUL, written to its fd 3 and read from its fd 4."""

    def __init__(self, binary, width, height):
        self.profile = tempfile.TemporaryDirectory(prefix="weft-trace-shot-")

        def high(fd):  # above 10, so the dup2s to 3 and 4 below never meet one of these
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            return moved

        to_chromium, self.w = map(high, os.pipe())
        self.r, from_chromium = map(high, os.pipe())
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--hide-scrollbars", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile.name, f"--window-size={width},{height}",
                "about:blank"]
        self.pid = os.posix_spawn(binary, args, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, to_chromium, 3), (os.POSIX_SPAWN_DUP2, from_chromium, 4),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        os.close(to_chromium)
        os.close(from_chromium)
        self.buf = b""
        self.last_id = 0
        self.session = None

    def call(self, method, **params):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params}
        if self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.w, data):]
        while True:  # events and other replies are skipped
            while b"\0" not in self.buf:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(json.dumps(r["exceptionDetails"]))
        return r["result"].get("value")

    def close(self):
        os.close(self.w)
        os.close(self.r)
        os.kill(self.pid, signal.SIGTERM)
        os.waitpid(self.pid, 0)
        self.profile.cleanup()


# Runs in the page: tr-ui-timeline-view is the viewer; its track view's viewport holds the
# visible range (model milliseconds), the analysis panel below shows the selection.
ZOOM = r"""
(async () => {
  const NAME = @NAME@, PAD = @PAD@, PANEL = @PANEL@, SELECT = @SELECT@;
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  let view = null;
  for (let i = 0; i < 600; i++) {
    view = document.querySelector('tr-ui-timeline-view');
    if (view && view.model && view.trackView) break;
    await sleep(100);
  }
  if (!(view && view.model)) return 'no trace viewer with a trace in the page';
  const tv = view.trackView;
  // the viewer sets its first viewport (the whole trace) once drawn: let it, then replace it
  for (let i = 0; i < 10; i++) await new Promise(r => requestAnimationFrame(r));
  await sleep(300);
  const hits = [];
  for (const t of view.model.getAllThreads())
    for (const s of t.sliceGroup.slices)
      if (s.title.startsWith(NAME)) hits.push(s);
  if (!hits.length) return 'no slice named ' + NAME + '...';
  hits.sort((a, b) => a.start - b.start);
  let lo = hits[0].start, hi = Math.max(...hits.map(s => s.end));
  const pad = (hi - lo) * PAD;
  lo -= pad; hi += pad;
  view.analysisEl_.style.height = PANEL + 'px';   // room for all of a slice's args
  tv.mouseModeSelector_.style.display = 'none';   // the floating toolbar would cover slices
  await sleep(100);
  const dt = new tr.ui.TimelineDisplayTransform();
  dt.set(tv.viewport.currentDisplayTransform);
  dt.xSetWorldBounds(lo, hi, tv.modelTrackContainer_.canvas.width);
  tv.viewport.setDisplayTransformImmediately(dt);
  if (SELECT)
    view.brushingStateController.changeSelectionFromTimeline(new tr.model.EventSet([hits[0]]));
  await sleep(500);
  return hits.length + ' slices named ' + NAME + '..., view ' + lo.toFixed(3) + ' to ' +
         hi.toFixed(3) + ' ms';
})()
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page", help="HTML page with the trace viewer and the trace (trace2html's)")
    ap.add_argument("-o", "--output", required=True, help="the PNG to write")
    ap.add_argument("--name", default="fused", help="zoom to slices whose name starts so")
    ap.add_argument("--pad", type=float, default=0.03, help="margin each side, of the range")
    ap.add_argument("--size", default="1600x900", help="window size WxH")
    ap.add_argument("--panel", type=int, default=300, help="height of the analysis panel (px)")
    ap.add_argument("--no-select", action="store_true", help="select nothing")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    width, height = map(int, a.size.split("x"))
    browser = Chromium(a.chromium, width, height)
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        browser.session = browser.call("Target.attachToTarget", targetId=target,
                                       flatten=True)["sessionId"]
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                     deviceScaleFactor=1, mobile=False)
        url = pathlib.Path(a.page).resolve().as_uri()
        browser.call("Page.navigate", url=url)
        for _ in range(600):  # the new document, loaded
            if browser.js("location.href + ' ' + document.readyState") == url + " complete":
                break
            time.sleep(0.1)
        expr = (ZOOM.replace("@NAME@", json.dumps(a.name)).replace("@PAD@", repr(a.pad))
                .replace("@PANEL@", str(a.panel))
                .replace("@SELECT@", "false" if a.no_select else "true"))
        print(browser.js(expr))
        shot = browser.call("Page.captureScreenshot", format="png")
        with open(a.output, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
