"""Pages for the DOM-helper tests: one app page embedded every way an iframe can be."""

from __future__ import annotations

INNER = """<!doctype html><html><head><title>inner</title><style>
body{margin:0;font:14px sans-serif} .abs{position:absolute}
</style></head><body>
<button id=go class=abs style="left:10px;top:10px;width:100px;height:30px" onclick="log('go')">Go</button>
<button id=under class=abs style="left:130px;top:10px;width:100px;height:30px">Under</button>
<div id=shield class=abs style="left:120px;top:0;width:130px;height:50px;z-index:5"></div>
<select id=country class=abs style="left:10px;top:60px;width:180px">
  <option value="">Choose…</option><option value=de>Germany</option><option value=vn>Viet Nam</option>
  <option value=kr>Korea, Republic of</option><option value=us>United States</option>
  <option value=uk>United Kingdom</option><option value=ci>Côte d'Ivoire</option>
</select>
<label id=clabel for=country class=abs style="left:200px;top:60px">Country</label>
<input id=name class=abs style="left:10px;top:100px;width:200px" value="old text">
<input id=when type=date class=abs style="left:250px;top:100px">
<div id=ce contenteditable class=abs style="left:10px;top:140px;width:200px;height:30px;border:1px solid #999">old</div>
<input id=hidden-in class=abs style="left:250px;top:140px;width:200px">
<div id=shield2 class=abs style="left:240px;top:130px;width:240px;height:50px;z-index:5"></div>
<div id=log class=abs style="left:10px;top:200px;width:500px"></div>
<script>
function log(s){ document.getElementById('log').textContent += s + ';'; }
document.getElementById('under').addEventListener('click', () => log('under'));
const c = document.getElementById('country');
c.addEventListener('change', () => log('change:' + c.value));
c.addEventListener('input', () => log('input:' + c.value));
let keyups = 0;
document.getElementById('name').addEventListener('keyup', () => { document.body.dataset.keyups = ++keyups; });
document.getElementById('hidden-in').addEventListener('keyup', () => { document.body.dataset.hkeyups = ++keyups; });
document.getElementById('when').addEventListener('change', (e) => log('date:' + e.target.value));
</script></body></html>"""

MAIN = """<!doctype html><html><head><title>main</title><style>
body{margin:0} iframe{position:absolute;width:600px;height:400px}
</style></head><body>
<input id=main-in style="position:absolute;left:1300px;top:560px" onkeyup="this.dataset.k=(+this.dataset.k||0)+1">
<button id=top-btn style="position:absolute;left:1300px;top:500px" onclick="this.textContent='pressed'">Main</button>
<div id=mshield style="position:absolute;left:655px;top:5px;width:120px;height:45px;z-index:3"></div>
<div id=host style="position:absolute;left:1300px;top:620px"></div>
<div id=wrap style="position:absolute;left:1300px;top:700px;padding:8px 40px 8px 8px;border:1px solid">
<select id=msel onchange="document.body.dataset.msel=this.value"><option>One</option><option>Two</option></select>
<span id=arrow style="position:absolute;right:8px;top:8px">&#9662;</span></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<button id=sb style="width:120px;height:30px">Shadow</button> <input id=si style="width:150px">';
root.getElementById('sb').addEventListener('click', () => { document.body.dataset.shadow = 'clicked'; });
// ?f=oop,xin loads only those frames, so a test waits for no more frames than it uses.
const FRAMES = {
  same: ['/inner.html', 'left:0;top:0;border:5px solid #333;padding:7px'],
  xin: ['http://127.0.0.1:{B}/inner.html', 'left:650px;top:0'],
  oop: ['http://localhost:{B}/inner.html', 'left:1300px;top:0;border:3px solid'],
  nest: ['http://localhost:{B}/nest.html', 'left:0;top:450px'],
  cap: ['http://localhost:{B}/recaptcha/api2/anchor', 'left:650px;top:450px'],
};
const want = new URLSearchParams(location.search).get('f');
for (const [id, [src, style]] of Object.entries(FRAMES)) {
  if (want && !want.split(',').includes(id)) continue;
  const f = document.createElement('iframe');
  f.id = id; f.src = src; f.style.cssText = style;
  document.body.appendChild(f);
}
</script>
</body></html>"""

NEST = """<!doctype html><html><body style="margin:0"><p style="margin:0;height:30px">nest</p>
<iframe id=deep src="http://127.0.0.1:{A}/inner.html" style="width:560px;height:340px;border:2px solid"></iframe>
</body></html>"""


def site_pages() -> tuple[dict[str, str | bytes], dict[str, str | bytes]]:
    """Page dicts for two_origins; call fill_ports once the ports are known."""
    return {"/inner.html": INNER}, {"/inner.html": INNER, "/recaptcha/api2/anchor": INNER}


def fill_ports(main: dict[str, str | bytes], frames: dict[str, str | bytes], a: int, b: int) -> None:
    main["/main.html"] = MAIN.replace("{B}", str(b))
    frames["/nest.html"] = NEST.replace("{A}", str(a))
    fill_search(main, frames, b)


LONG = (
    "<!doctype html><html><head><title>long</title></head><body style='margin:8px'>"
    + "".join(f"<p>filler line {i}</p>" for i in range(200))
    + "<p id=target>The Hidden   <b>Needle</b> sits here</p>"
    + "".join(f"<p>tail line {i}</p>" for i in range(50))
    + "</body></html>"
)

SEARCH = (
    """<!doctype html><html><head><title>search</title></head><body style="margin:0">
<p id=intro>Intro text with a needle in it. <a id=hash href="#later">later</a></p>
<div id=box style="height:200px;width:600px;overflow:auto;border:1px solid">
"""
    + "".join(f"<div>box row {i}</div>" for i in range(60))
    + """<div id=boxed>Boxed needle here</div></div>
<table id=prices><tr><th>Item</th><th>Price</th></tr>
<tr><td>Widget</td><td>\ue001\ue002.50</td></tr><tr><td>Gadget</td><td>\U000f0001 9</td></tr></table>
<span id=tip-target style="display:inline-block;padding:10px">Hover me</span>
<div id=tip role=tooltip style="display:none">Value: 42</div>
<div style="margin:80px 0 0 400px"><svg width=200 height=100><circle id=dot cx=50 cy=50 r=30 fill=red></circle><text id=lbl x=100 y=50></text></svg></div>
<div style="height:1400px"></div>
<iframe id=longf src="http://localhost:{B}/long.html" style="width:800px;height:400px;border:4px solid"></iframe>
<div id=later style="height:1500px">later</div>
<script>
const t = document.getElementById('tip');
document.getElementById('tip-target').addEventListener('mouseenter', () => { t.style.display = 'block'; });
document.getElementById('dot').addEventListener('mouseenter', () => { document.getElementById('lbl').textContent = '12.5'; });
</script></body></html>"""
)


def fill_search(main: dict[str, str | bytes], frames: dict[str, str | bytes], b: int) -> None:
    main["/search.html"] = SEARCH.replace("{B}", str(b))
    frames["/long.html"] = LONG
