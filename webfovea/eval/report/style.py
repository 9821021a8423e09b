"""The style sheet every HTML report of webfovea inlines (run reports, A/B reports)."""

CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;
margin:0;color:#1d2330;background:#f5f6f8}main{max-width:1280px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px}h3{font-size:16px;margin:0}
table{border-collapse:collapse;background:#fff;width:100%;margin:8px 0 16px}
th,td{border-bottom:1px solid #e3e6eb;padding:6px 10px;text-align:left;vertical-align:top}
th{background:#eef0f4;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.banner{background:#fff3cd;border:2px solid #d39e00;color:#6b4e00;padding:12px 16px;border-radius:6px;
font-weight:600;margin:12px 0}.counts{font-size:28px;font-weight:700;margin:8px 0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:700;color:#fff}
.pass{background:#1a7f37}.fail{background:#c62828}.meta td:first-child{width:160px;color:#555}
.task{background:#fff;border:1px solid #e3e6eb;border-radius:8px;padding:16px;margin:24px 0}
.task-head{display:flex;gap:12px;align-items:center}.kv{color:#555;margin:4px 0}
.kv b{color:#1d2330}pre,code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f6f8;padding:8px;border-radius:4px;margin:4px 0}
ol.timeline{list-style:none;padding:0;margin:12px 0 0}
.step{display:grid;grid-template-columns:minmax(0,720px) minmax(0,1fr);gap:16px;padding:12px 0;
border-top:1px solid #e3e6eb}.step img{width:100%;height:auto;border:1px solid #ccd;border-radius:4px}
.step .noimg{color:#888;font-style:italic}.label{font-size:11px;text-transform:uppercase;color:#777;
letter-spacing:.04em;margin-top:8px}.error{color:#c62828}.reject{color:#a15c00}
a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}
@media (max-width:1000px){.step{grid-template-columns:1fr}}
"""
