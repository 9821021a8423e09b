"""Pages for test_scoping_on_screen.py: big pages whose on-screen rows a scoped snapshot must keep.

Each has a header with 40 navigation links (a landmark the scoping always keeps, so the budget is
tight) and rows whose markup is heavier than their text, as real widgets render them."""

from __future__ import annotations

NAV = (
    "<header><h1>Operations console</h1><nav>"
    + "".join(f'<a href="/section/{i}">Section {i}</a> ' for i in range(40))
    + "</nav></header>"
)


def ag_grid_page(rows: int) -> str:
    """AG Grid Community (its UMD build at /ag.js): selectable rows, an editable Make column."""
    return f"""<!doctype html><html><head><script src="/ag.js"></script></head><body>{NAV}
<main><h2>Vehicles</h2><div id="grid" style="height:520px;width:1000px"></div></main>
<script>
const rows = Array.from({{length: {rows}}}, (_, i) => ({{vin: 'VIN-' + String(i).padStart(5, '0'),
  make: ['Ford', 'Kia', 'Audi'][i % 3], price: 1000 + i, status: 'open'}}));
window.api = agGrid.createGrid(document.getElementById('grid'), {{
  theme: agGrid.themeQuartz, rowData: rows, getRowId: (p) => p.data.vin,
  columnDefs: [{{field: 'vin'}}, {{field: 'make', editable: true}}, {{field: 'price'}}, {{field: 'status'}}],
  rowSelection: {{mode: 'multiRow'}},
}});
</script></body></html>"""


def tabulator_page(rows: int) -> str:
    """Tabulator with its virtual DOM renderer (only the rows near its view exist), selectable rows."""
    return f"""<!doctype html><html><head><link rel="stylesheet" href="/tabulator.min.css">
<script src="/tabulator.min.js"></script></head><body>{NAV}
<main><h2>Parts</h2><div id="table" style="width:900px"></div></main>
<script>
const data = Array.from({{length: {rows}}}, (_, i) => ({{id: i, code: 'TAB-' + String(i).padStart(5, '0'),
  name: 'Part ' + i, qty: i % 97, bin: 'B' + (i % 13)}}));
window.table = new Tabulator('#table', {{height: '520px', data, selectableRows: true, layout: 'fitColumns',
  columns: [{{title: 'Code', field: 'code'}}, {{title: 'Name', field: 'name'}}, {{title: 'Qty', field: 'qty'}},
            {{title: 'Bin', field: 'bin'}}]}});
</script></body></html>"""


def _admin_rows(n: int) -> str:
    out = []
    for i in range(n):
        num = f"ORD-{10000 + i}"
        out.append(
            f'<tr data-key="{num}"><td class="action-checkbox"><input type="checkbox" name="_selected_action" '
            f'value="{10000 + i}" class="action-select" aria-label="Select {num}"></td>'
            f'<th class="field-number"><a href="/admin/shop/order/{10000 + i}/change/">{num}</a></th>'
            f'<td class="field-customer"><span>Customer {i % 37}</span></td>'
            f'<td class="field-status"><img src="data:," alt="{"True" if i % 2 else "False"}"> '
            f'{"Paid" if i % 2 else "Open"}</td><td class="field-total">{(i * 7.3) % 900:.2f}</td>'
            f'<td class="field-created"><time>2026-11-{1 + i % 28:02d}</time></td></tr>'
        )
    return "".join(out)


def _admin_sidebar() -> str:
    apps = []
    for a, models in (
        ("Auth", ("Groups", "Users")),
        ("Shop", ("Orders", "Customers", "Products", "Refunds")),
    ):
        trs = "".join(
            f'<tr><th scope="row"><a href="/admin/{a.lower()}/{m.lower()}/">{m}</a></th>'
            f'<td><a href="/admin/{a.lower()}/{m.lower()}/add/" class="addlink">Add</a></td></tr>'
            for m in models
        )
        apps.append(
            f'<div class="module"><table><caption><a href="/admin/{a.lower()}/">{a}</a></caption>{trs}</table></div>'
        )
    return (
        '<nav id="nav-sidebar" aria-label="Sidebar" style="width:280px;float:left">'
        '<input type="search" id="nav-filter" placeholder="Start typing to filter…" aria-label="Filter navigation items">'
        + "".join(apps * 4)
        + "</nav>"
    )


def _admin_filters() -> str:
    groups = "".join(
        f'<details open><summary>By {k}</summary><ul><li class="selected"><a href="?">All</a></li>'
        + "".join(f'<li><a href="?{k}={v}">{v}</a></li>' for v in vals)
        + "</ul></details>"
        for k, vals in (
            ("status", ("Open", "Paid", "Shipped")),
            ("customer", [f"Customer {i}" for i in range(12)]),
        )
    )
    return f'<nav id="changelist-filter" aria-label="Filter" style="float:right;width:240px"><h2>Filter</h2>{groups}</nav>'


# A Django-admin change list (Django 5's markup, 100 rows a page): the rows sit in a form beside
# two sidebars, all three landmarks.
ADMIN = f"""<!doctype html><html><head><title>Select order to change</title></head><body><div id="container">
<header id="header"><div id="branding"><div id="site-name"><a href="/admin/">Django administration</a></div></div>
<div id="user-tools">Welcome, <strong>admin</strong>. <a href="/">View site</a> /
<form id="logout-form" method="post" action="/admin/logout/"><button type="submit">Log out</button></form></div></header>
<nav aria-label="Breadcrumbs"><div class="breadcrumbs"><a href="/admin/">Home</a> › <a href="/admin/shop/">Shop</a> › Orders</div></nav>
<div class="main" id="main">{_admin_sidebar()}
<main id="content-start" class="content" style="margin-left:300px"><div id="content"><h1>Select order to change</h1>
<div id="content-main"><ul class="object-tools"><li><a href="/admin/shop/order/add/">Add order</a></li></ul>
<div class="module filtered" id="changelist">{_admin_filters()}<div class="changelist-form-container" style="margin-right:260px">
<div id="toolbar"><form id="changelist-search" method="get" role="search"><label for="searchbar">Search</label>
<input type="text" size="40" name="q" id="searchbar"><input type="submit" value="Search"></form></div>
<form id="changelist-form" method="post" action="/admin/shop/order/"><div class="actions">
<label>Action: <select name="action"><option value="" selected>---------</option>
<option value="delete_selected">Delete selected orders</option><option value="mark_shipped">Mark selected orders as shipped</option>
</select></label><button type="submit" class="button" name="index" value="0">Go</button>
<span class="action-counter">0 of 100 selected</span></div>
<div class="results"><table id="result_list"><thead><tr><th><input type="checkbox" id="action-toggle" aria-label="Select all objects on this page for an action"></th>
<th><a href="?o=1">Number</a></th><th><a href="?o=2">Customer</a></th><th><a href="?o=3">Status</a></th>
<th><a href="?o=4">Total</a></th><th><a href="?o=5">Created</a></th></tr></thead>
<tbody>{_admin_rows(100)}</tbody></table></div><p class="paginator">100 orders</p></form></div></div></div></div></main></div></div>
</body></html>"""


def _recs(n: int) -> str:
    return "".join(
        f'<div class="rec" data-key="REC-{i:05d}" style="height:30px;display:flex;gap:8px">'
        f'<a href="#REC-{i:05d}">REC-{i:05d}</a><span><b>{i % 7}</b></span><span><i>{i % 11}</i></span>'
        f"<span><em>{i % 5}</em></span><span><small>{i % 3}</small></span><span><u>{i % 13}</u></span></div>"
        for i in range(n)
    )


# Rows in a container scaled to half size: twice as many on screen as their layout suggests.
SCALED = f"""<!doctype html><html><body>{NAV}<main><h2>Records</h2>
<div class="scaled" style="transform:scale(0.5);transform-origin:0 0;width:1600px">{_recs(3000)}</div></main></body></html>"""

# Rows in a short nested scroller low on the page, scrolled deep: rows it clips away sit above it,
# inside the window's view and earlier in the document than the rows it shows.
NESTED = f"""<!doctype html><html><body>{NAV}<main><h2>Records</h2>
<div style="height:420px"></div>
<div class="pane" style="height:300px;overflow:auto;border:1px solid #888">{_recs(3000)}</div></main></body></html>"""


# TanStack Virtual's core (its ES build under /tv/), the way its framework adapters drive it: a
# scroller, a spacer as tall as all rows, only the rows near the view rendered, moved by translateY;
# below it a long activity log makes the page big enough to be scoped.
TANSTACK = f"""<!doctype html><html><body>{NAV}<main><h2>Tasks</h2>
<div id="scroller" style="height:560px;width:800px;overflow:auto"><div id="inner" style="position:relative"></div></div>
<h2>Activity</h2><ul class="log">{"".join(f"<li><b>LOG-{i:05d}</b> <i>task {i % 5000}</i> <span>moved</span></li>" for i in range(1500))}</ul>
</main><script>window.process = {{env: {{NODE_ENV: 'production'}}}};  // what a bundler would inline</script>
<script type="module">
import {{Virtualizer, observeElementRect, observeElementOffset, elementScroll}} from '/tv/index.js';
const scroller = document.getElementById('scroller'), inner = document.getElementById('inner');
const items = Array.from({{length: 5000}}, (_, i) => 'TASK-' + String(i).padStart(5, '0'));
window.done = [];
const render = () => {{
  inner.style.height = v.getTotalSize() + 'px';
  inner.innerHTML = v.getVirtualItems().map((it) => `<div class="task" role="listitem" data-key="${{items[it.index]}}"
    style="position:absolute;top:0;left:0;width:100%;height:36px;transform:translateY(${{it.start}}px)">
    <label><input type="checkbox" data-i="${{it.index}}" ${{done.includes(items[it.index]) ? 'checked' : ''}}>
    Done ${{items[it.index]}}</label> <span><b>${{it.index % 9}}</b> <i>owner ${{it.index % 17}}</i></span></div>`).join('');
}};
const v = new Virtualizer({{count: items.length, getScrollElement: () => scroller, estimateSize: () => 36,
  overscan: 8, observeElementRect, observeElementOffset, scrollToFn: elementScroll, onChange: render}});
inner.addEventListener('change', (e) => {{ if (e.target.checked) done.push(items[+e.target.dataset.i]); }});
v._didMount(); v._willUpdate(); render();
window.virt = v;
</script></body></html>"""
