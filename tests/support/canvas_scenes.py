"""Canvas charts drawn by page JavaScript, and pairs of captures of them: a real but subtle
change, or rendering noise. Shared by tests/feedback/test_perceptual.py and
benchmarks/bench_change_detection.py.

The page draws one of three charts (bar, heat map, line) from a seed; `draw(kind, seed, variant)`
redraws it. Variants that change what the chart says: `taller` (one bar 3 px taller),
`recolour` (one heat-map cell 15 levels darker), `moved` (one line point 6 px higher).
Variants that do not: `caret` (the focused input's caret shown, as one blink frame), `aa`
(the chart drawn a third of a pixel to the side: anti-aliasing jitter), `jpeg` (the canvas
replaced by its own JPEG re-encode at quality 0.8), `shift` (the canvas element one CSS pixel to
the right). Captures go through the harness (`Harness.observe`).
"""

from __future__ import annotations

from PIL import Image

from webfovea.harness import Harness

KINDS = ("bar", "heat", "line")
CHANGES = {"bar": "taller", "heat": "recolour", "line": "moved"}
NOISE = ("caret", "aa", "jpeg", "shift")

PAGE = """<!doctype html><html><head><style>
body{margin:0;font:16px sans-serif;background:#fff}
h1{font-size:22px;margin:16px 24px}
#c{position:absolute;left:60px;top:70px;border:1px solid #ccc}
#q{position:absolute;left:960px;top:80px;width:300px;font:16px sans-serif;padding:4px}
</style></head><body>
<h1>Quarterly dashboard</h1>
<input id=q value="revenue by region" style="caret-color:transparent">
<canvas id=c width=820 height=460 style="width:820px;height:460px"></canvas>
<script>
function rng(seed){let s=seed*2654435761%4294967296+1;return()=>(s=(s*1664525+1013904223)%4294967296)/4294967296;}
const ctx=document.getElementById('c').getContext('2d');
function axes(){ctx.strokeStyle='#444';ctx.lineWidth=1;ctx.beginPath();ctx.moveTo(50,20);ctx.lineTo(50,420);ctx.lineTo(800,420);ctx.stroke();
 ctx.fillStyle='#333';ctx.font='12px sans-serif';for(let i=0;i<=5;i++){ctx.fillText(String(i*20),18,424-i*80);}}
function bar(r,v){axes();const n=12;for(let i=0;i<n;i++){let h=Math.round(60+r()*300);if(v==='taller'&&i===5)h+=3;
 ctx.fillStyle=`hsl(${200+i*5},60%,${45+(i%3)*5}%)`;ctx.fillRect(70+i*60,420-h,40,h);ctx.fillStyle='#333';ctx.fillText('Q'+(i+1),80+i*60,436);}}
function heat(r,v){const cols=14,rows=8;for(let y=0;y<rows;y++)for(let x=0;x<cols;x++){let t=r();
 let c=[Math.round(40+t*200),Math.round(90+t*80),Math.round(220-t*160)];if(v==='recolour'&&x===6&&y===3)c=c.map(k=>Math.max(0,k-15));
 ctx.fillStyle=`rgb(${c})`;ctx.fillRect(60+x*52,30+y*48,50,46);}
 ctx.fillStyle='#333';ctx.font='12px sans-serif';for(let x=0;x<cols;x++)ctx.fillText('W'+x,72+x*52,410);}
function line(r,v){axes();const n=14;ctx.strokeStyle='#c33';ctx.lineWidth=2;ctx.beginPath();const pts=[];
 for(let i=0;i<n;i++){let y=Math.round(100+r()*280);if(v==='moved'&&i===7)y-=6;pts.push([70+i*52,y]);}
 pts.forEach((p,i)=>i?ctx.lineTo(...p):ctx.moveTo(...p));ctx.stroke();
 ctx.fillStyle='#c33';for(const p of pts){ctx.beginPath();ctx.arc(p[0],p[1],3,0,7);ctx.fill();}}
async function draw(kind,seed,variant){const cv=document.getElementById('c');
 cv.style.left=variant==='shift'?'61px':'60px';
 document.getElementById('q').style.caretColor=variant==='caret'?'#000':'transparent';
 ctx.setTransform(1,0,0,1,0,0);ctx.fillStyle='#fff';ctx.fillRect(0,0,cv.width,cv.height);
 if(variant==='aa')ctx.translate(0.33,0.33);
 ({bar,heat,line})[kind](rng(seed),variant);ctx.setTransform(1,0,0,1,0,0);
 if(variant==='jpeg'){const img=new Image();img.src=cv.toDataURL('image/jpeg',0.8);await img.decode();ctx.drawImage(img,0,0);}
 await new Promise(r=>requestAnimationFrame(()=>requestAnimationFrame(r)));}
document.getElementById('q').focus();
draw('bar',1,'base');
</script></body></html>"""


async def capture(h: Harness, kind: str, seed: int, variant: str) -> Image.Image:
    """Redraw the chart and capture the view the model would be sent."""
    await h.page.evaluate("([k, s, v]) => draw(k, s, v)", [kind, seed, variant])
    obs = await h.observe()
    assert obs.image is not None
    return obs.image


async def pair(h: Harness, kind: str, seed: int, variant: str) -> tuple[Image.Image, Image.Image]:
    """The base chart and its variant, each as captured."""
    return await capture(h, kind, seed, "base"), await capture(h, kind, seed, variant)
