"""Pages for the harness tests: each reproduces one failure class of the paper's Table 2."""

BUTTON_FAR = """<html><body style="margin:0;font:16px sans-serif">
<div id=log>none</div>
<button id=far style="position:absolute;left:1500px;top:880px;width:240px;height:90px"
  onclick="document.getElementById('log').textContent='far clicked'">Far button</button>
<button id=decoy style="position:absolute;left:1080px;top:640px;width:240px;height:90px"
  onclick="document.getElementById('log').textContent='decoy clicked'">Decoy</button>
</body></html>"""

SEARCH = """<html><body style="margin:0;font:16px sans-serif">
<form id=f onsubmit="event.preventDefault(); document.getElementById('log').textContent='searched:'+document.getElementById('q').value">
<input id=q style="position:absolute;left:300px;top:200px;width:400px;height:40px" autocomplete=off>
</form><div id=log style="position:absolute;left:300px;top:300px">none</div>
<div id=keys style="position:absolute;left:300px;top:340px"></div>
<script>document.getElementById('q').addEventListener('keyup', e => {
  document.getElementById('keys').textContent += e.key.length === 1 ? e.key : '';
});</script>
</body></html>"""

FORM = """<html><body style="margin:0;font:16px sans-serif">
<select id=country style="position:absolute;left:200px;top:150px;width:240px;height:36px"
  onchange="document.getElementById('log').textContent='country='+this.value">
  <option value="">Choose</option><option value="DE">Germany</option>
  <option value="VN">Viet Nam</option><option value="CI">Côte d’Ivoire</option></select>
<input id=date type=date style="position:absolute;left:200px;top:250px;width:240px;height:36px"
  onchange="document.getElementById('log').textContent='date='+this.value">
<div style="position:absolute;left:200px;top:350px;width:420px;height:60px">
  <input id=name style="width:400px;height:36px">
  <div id=overlay style="position:absolute;left:0;top:0;width:420px;height:60px;background:transparent"></div>
</div>
<div id=ce contenteditable style="position:absolute;left:200px;top:450px;width:400px;height:40px;border:1px solid #999"></div>
<div id=plain style="position:absolute;left:800px;top:150px;width:300px;height:40px">Just text</div>
<div id=log style="position:absolute;left:200px;top:550px">none</div>
</body></html>"""

DASH_OUTER = """<html><body style="margin:0;font:16px sans-serif"><h1>Report</h1>
<iframe id=dash src="{frame}/dash" style="position:absolute;left:100px;top:620px;width:1200px;height:420px;border:0"></iframe>
</body></html>"""

DASH_INNER = """<html><body style="margin:0;font:16px sans-serif">
<ul id=list style="position:absolute;left:20px;top:20px;width:300px">
 <li data-c=DE style="height:40px">Germany</li><li data-c=VN style="height:40px">Viet Nam</li>
</ul>
<div id=overlay style="position:absolute;left:0;top:0;width:400px;height:300px;background:transparent"></div>
<div id=chart style="position:absolute;left:500px;top:20px">Selected: <span id=sel>none</span></div>
<svg style="position:absolute;left:500px;top:100px" width=300 height=250>
  <rect id=bar x=40 y=50 width=60 height=200 fill=steelblue></rect>
</svg>
<div id=tip style="position:absolute;left:820px;top:100px;display:none">Value: 123.4</div>
<script>
for (const li of document.querySelectorAll('li')) li.addEventListener('click', () => {
  document.getElementById('sel').textContent = li.dataset.c;
});
const bar = document.getElementById('bar'), tip = document.getElementById('tip');
bar.addEventListener('mouseenter', () => tip.style.display = 'block');
bar.addEventListener('mouseleave', () => tip.style.display = 'none');
</script></body></html>"""

LONG = (
    "<html><body style='margin:0;font:16px sans-serif'>"
    + "".join(f"<p>Paragraph {i}: filler text about nothing in particular.</p>" for i in range(600))
    + "<p id=needle>Total assets: 9,876</p>"
    + "".join(f"<p>After {i}</p>" for i in range(50))
    + "</body></html>"
)

PUA = """<html><body style="margin:0;font:16px sans-serif"><table><tr><td>Score</td>
<td id=v>\ue001\ue002.\ue003</td></tr></table></body></html>"""

NAV = """<html><body style="margin:0"><a id=next href="/next" style="position:absolute;left:100px;top:100px;font-size:40px">Next page</a></body></html>"""
NEXT = """<html><head><title>Next</title></head><body><p>second page</p></body></html>"""
