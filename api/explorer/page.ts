/**
 * GET /map: the patent-space explorer. One self-contained HTML page (no CDN, nothing fetched but
 * the API): it asks for an API key, loads /api/v1/patent-map/points and /whitespace, and draws the
 * point cloud coloured by CPC section and the voids as shaded spheres with a small 3D renderer on
 * a 2D canvas (drag to rotate, wheel to zoom, hover a void for its summary). A 2D canvas works
 * everywhere, including headless browsers without a GPU.
 */
export const explorerPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Patent space explorer</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; background: #0f1218; color: #dde3ea; }
  header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #171c25; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0 12px 0 0; }
  input, select, button { font: inherit; padding: 4px 8px; border-radius: 4px; border: 1px solid #3a4556; background: #0f1218; color: inherit; }
  button { cursor: pointer; background: #2d5b9a; border-color: #2d5b9a; }
  #status { color: #9fb0c4; }
  #legend span { display: inline-block; margin-right: 8px; }
  #legend i { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 3px; }
  canvas { display: block; width: 100vw; height: calc(100vh - 52px); cursor: grab; }
  #tip { position: fixed; max-width: 420px; background: #1d2430ee; padding: 8px 10px; border-radius: 6px; pointer-events: none; display: none; }
</style>
</head>
<body>
<header>
  <h1>Patent space</h1>
  <form id="auth"><input id="key" type="password" placeholder="API key" autocomplete="off" size="34"> <button>Load</button></form>
  <label>Points <select id="limit"><option>2000</option><option selected>10000</option><option>50000</option></select></label>
  <span id="legend"></span>
  <span id="status">Enter an API key to load the map.</span>
</header>
<canvas id="map"></canvas>
<div id="tip"></div>
<script>
(() => {
  const COLORS = { A: "#e6194b", B: "#3cb44b", C: "#ffe119", D: "#4363d8", E: "#f58231", F: "#911eb4", G: "#42d4f4", H: "#f032e6", Y: "#bfef45" };
  const canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
  const status = document.getElementById("status"), tip = document.getElementById("tip");
  const state = { points: [], voids: [], yaw: 0.6, pitch: 0.35, zoom: 1, drawnPoints: 0, drawnVoids: 0, projected: [] };
  window.__explorer = state;
  document.getElementById("legend").innerHTML = Object.entries(COLORS).map(([s, c]) => '<span><i style="background:' + c + '"></i>' + s + "</span>").join("") + '<span><i style="background:#888"></i>none</span>';

  const api = async (path, key) => {
    const r = await fetch("/api/v1/patent-map/" + path, { headers: { authorization: "Bearer " + key } });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw Object.assign(new Error(body.error || r.statusText), { status: r.status });
    return body;
  };

  const load = async (key) => {
    status.textContent = "Loading…";
    try {
      const points = await api("points?limit=" + document.getElementById("limit").value, key);
      state.points = points.points;
      let voidNote = "";
      try { state.voids = (await api("whitespace?limit=500", key)).voids; }
      catch (e) { state.voids = []; voidNote = e.status === 404 ? " (no whitespace atlas built)" : " (whitespace: " + e.message + ")"; }
      sessionStorage.setItem("patent-map-key", key);
      fit();
      status.textContent = state.points.length + " points" + (points.truncated ? " (truncated)" : "") + ", " + state.voids.length + " voids" + voidNote;
      draw();
    } catch (e) {
      status.textContent = "Could not load: " + e.message;
    }
  };

  // Centre and scale the frame on the loaded points.
  const fit = () => {
    const all = state.points.length ? state.points : [{ x: 0, y: 0, z: 0 }];
    const mean = ["x", "y", "z"].map((d) => all.reduce((s, p) => s + p[d], 0) / all.length);
    // Fit the 90th-percentile radius, not the farthest point: a few outliers would shrink the bulk to a dot.
    const radii = all.map((p) => Math.hypot(p.x - mean[0], p.y - mean[1], p.z - mean[2])).sort((a, b) => a - b);
    const extent = Math.max(1e-9, radii[Math.floor(0.9 * (radii.length - 1))]);
    state.centre = mean; state.scale = 1 / extent;
  };

  const project = (p, w, h) => {
    const c = state.centre, s = state.scale;
    let x = (p.x - c[0]) * s, y = (p.y - c[1]) * s, z = (p.z - c[2]) * s;
    const cy = Math.cos(state.yaw), sy = Math.sin(state.yaw), cp = Math.cos(state.pitch), sp = Math.sin(state.pitch);
    [x, z] = [x * cy - z * sy, x * sy + z * cy];
    [y, z] = [y * cp - z * sp, y * sp + z * cp];
    const f = (Math.min(w, h) * 0.45 * state.zoom) / (1 + 0.35 * (z + 1));
    return { sx: w / 2 + x * f, sy: h / 2 - y * f, depth: z, f };
  };

  const draw = () => {
    const dpr = window.devicePixelRatio || 1, w = canvas.clientWidth, h = canvas.clientHeight;
    canvas.width = w * dpr; canvas.height = h * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#0f1218"; ctx.fillRect(0, 0, w, h);
    if (!state.centre) return;
    const items = [];
    for (const p of state.points) items.push({ kind: "point", p, ...project(p, w, h) });
    for (const v of state.voids) items.push({ kind: "void", v, ...project(v.position, w, h) });
    items.sort((a, b) => b.depth - a.depth);
    let drawnPoints = 0, drawnVoids = 0;
    state.projected = [];
    for (const it of items) {
      if (it.kind === "point") {
        ctx.fillStyle = COLORS[it.p.section] || "#888";
        ctx.globalAlpha = 0.75;
        ctx.fillRect(it.sx - 1.2, it.sy - 1.2, 2.4, 2.4);
        drawnPoints++;
      } else {
        const r = Math.max(3, it.v.radius * state.scale * it.f);
        const g = ctx.createRadialGradient(it.sx, it.sy, r * 0.1, it.sx, it.sy, r);
        g.addColorStop(0, "rgba(255,255,255,0.35)"); g.addColorStop(1, "rgba(255,255,255,0.04)");
        ctx.globalAlpha = 0.4 + 0.6 * it.v.opportunity;
        ctx.fillStyle = g; ctx.beginPath(); ctx.arc(it.sx, it.sy, r, 0, 2 * Math.PI); ctx.fill();
        ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 1; ctx.stroke();
        state.projected.push({ v: it.v, sx: it.sx, sy: it.sy, r });
        drawnVoids++;
      }
    }
    ctx.globalAlpha = 1;
    state.drawnPoints = drawnPoints; state.drawnVoids = drawnVoids;
    canvas.dataset.points = String(drawnPoints); canvas.dataset.voids = String(drawnVoids);
  };

  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.style.cursor = "grabbing"; });
  window.addEventListener("mouseup", () => { drag = null; canvas.style.cursor = "grab"; });
  window.addEventListener("mousemove", (e) => {
    if (drag) {
      state.yaw += (e.clientX - drag.x) * 0.01; state.pitch += (e.clientY - drag.y) * 0.01;
      drag = { x: e.clientX, y: e.clientY }; draw(); return;
    }
    const rect = canvas.getBoundingClientRect(), mx = e.clientX - rect.left, my = e.clientY - rect.top;
    const hit = state.projected.find((p) => Math.hypot(p.sx - mx, p.sy - my) < p.r);
    if (!hit) { tip.style.display = "none"; return; }
    const v = hit.v;
    tip.innerHTML = "<b>" + v.id + "</b> · opportunity " + v.opportunity.toFixed(2) + " · section " + (v.section || "?") + (v.temporal && v.temporal.hot ? " · hot" : "") + "<br>";
    tip.appendChild(document.createTextNode(v.summary || ""));
    tip.style.left = e.clientX + 14 + "px"; tip.style.top = e.clientY + 14 + "px"; tip.style.display = "block";
  });
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); state.zoom *= Math.exp(-e.deltaY * 0.001); draw(); }, { passive: false });
  window.addEventListener("resize", draw);
  document.getElementById("auth").addEventListener("submit", (e) => { e.preventDefault(); load(document.getElementById("key").value.trim()); });
  document.getElementById("limit").addEventListener("change", () => { const k = sessionStorage.getItem("patent-map-key"); if (k) load(k); });
  const saved = sessionStorage.getItem("patent-map-key");
  if (saved) { document.getElementById("key").value = saved; load(saved); }
  draw();
})();
</script>
</body>
</html>
`
