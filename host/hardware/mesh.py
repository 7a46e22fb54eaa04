"""Triangle meshes from STL files, and the geometry the case checks need:
bounding boxes, volume, connected shells, a uniform grid for neighbour
queries, triangles that cut through each other, points inside a mesh,
wall thickness along inward rays, and horizontal slices.

Plain Python (struct and math): the meshes here are a few thousand
triangles, and a grid keeps every query local.
"""
import math
import struct

# A triangle is a tuple of three (x, y, z) tuples.


def read_stl(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= 84:
        n = struct.unpack_from("<I", data, 80)[0]
        if 84 + 50 * n == len(data):
            tris = []
            for i in range(n):
                v = struct.unpack_from("<12f", data, 84 + 50 * i)
                tris.append(((v[3], v[4], v[5]), (v[6], v[7], v[8]), (v[9], v[10], v[11])))
            return tris
    tris, cur = [], []
    for line in data.decode("ascii", "replace").splitlines():
        parts = line.split()
        if parts and parts[0] == "vertex":
            cur.append((float(parts[1]), float(parts[2]), float(parts[3])))
            if len(cur) == 3:
                tris.append(tuple(cur))
                cur = []
    return tris


def write_stl(path, tris, header=b"okgin"):
    """Binary STL (what slicers expect; a third of the ASCII size)."""
    out = [header[:80].ljust(80, b" "), struct.pack("<I", len(tris))]
    for a, b, c in tris:
        n = normal(a, b, c)
        out.append(struct.pack("<12fH", n[0], n[1], n[2], *a, *b, *c, 0))
    with open(path, "wb") as f:
        f.write(b"".join(out))


def canonical(tris):
    """The same triangles in an order that depends on nothing but their
    coordinates: each starts at its smallest vertex (winding kept) and the
    list is sorted. OpenSCAD's CGAL writes the same solid with its triangles
    in a different order from run to run; written in this order, a rebuild
    with nothing changed gives the same bytes."""
    out = []
    for t in tris:
        i = t.index(min(t))
        out.append(t[i:] + t[:i])
    out.sort()
    return out


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def normal(a, b, c):
    n = cross(sub(b, a), sub(c, a))
    length = math.sqrt(dot(n, n))
    return (0.0, 0.0, 0.0) if length == 0 else (n[0] / length, n[1] / length, n[2] / length)


def area(t):
    n = cross(sub(t[1], t[0]), sub(t[2], t[0]))
    return 0.5 * math.sqrt(dot(n, n))


def bbox(tris):
    xs = [v[0] for t in tris for v in t]
    ys = [v[1] for t in tris for v in t]
    zs = [v[2] for t in tris for v in t]
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))


def volume(tris):
    """Enclosed volume (divergence theorem); a degenerate sheet gives 0."""
    return sum(dot(a, cross(b, c)) for a, b, c in tris) / 6.0


def transform(tris, fn):
    return [(fn(a), fn(b), fn(c)) for a, b, c in tris]


def rotate_z180(tris):
    return transform(tris, lambda v: (-v[0], -v[1], v[2]))


def flip_over(tris):
    """Turn a part upside down (rotate 180 degrees about x): for printing the lid."""
    return transform(tris, lambda v: (v[0], -v[1], -v[2]))


def place_on_bed(tris):
    """Move a part so it stands on z = 0, centred on x/y."""
    (x0, y0, z0), (x1, y1, _) = bbox(tris)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return transform(tris, lambda v: (v[0] - cx, v[1] - cy, v[2] - z0))


def shells(tris, digits=4):
    """Split a mesh into its connected pieces (triangles sharing a vertex)."""
    parent = list(range(len(tris)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    first = {}
    for i, t in enumerate(tris):
        for v in t:
            k = (round(v[0], digits), round(v[1], digits), round(v[2], digits))
            j = first.setdefault(k, i)
            if j != i:
                a, b = find(i), find(j)
                if a != b:
                    parent[a] = b
    groups = {}
    for i in range(len(tris)):
        groups.setdefault(find(i), []).append(tris[i])
    return list(groups.values())


def thin_shells(tris, max_t):
    """The triangles of the shells no thicker than max_t across their
    largest face (the panels' ink films)."""
    out = []
    for sh in shells(tris):
        big = max(sh, key=area)
        n = normal(*big)
        ds = [dot(v, n) for t in sh for v in t]
        if max(ds) - min(ds) < max_t:
            out += sh
    return out


class Grid:
    """Triangles bucketed by the cells their bounding boxes cover."""

    def __init__(self, tris, cell=4.0):
        self.tris = tris
        self.cell = cell
        self.cells = {}
        self.box = bbox(tris) if tris else ((0, 0, 0), (0, 0, 0))
        for i, t in enumerate(tris):
            for key in self._keys(_tri_box(t)):
                self.cells.setdefault(key, []).append(i)

    def _keys(self, box):
        (x0, y0, z0), (x1, y1, z1) = box
        c = self.cell
        for i in range(int(math.floor(x0 / c)), int(math.floor(x1 / c)) + 1):
            for j in range(int(math.floor(y0 / c)), int(math.floor(y1 / c)) + 1):
                for k in range(int(math.floor(z0 / c)), int(math.floor(z1 / c)) + 1):
                    yield (i, j, k)

    def near(self, box):
        found = set()
        for key in self._keys(box):
            found.update(self.cells.get(key, ()))
        return found


def _tri_box(t):
    return ((min(v[0] for v in t), min(v[1] for v in t), min(v[2] for v in t)),
            (max(v[0] for v in t), max(v[1] for v in t), max(v[2] for v in t)))


def _boxes_overlap(a, b, pad=0.0):
    return all(a[0][i] <= b[1][i] + pad and b[0][i] <= a[1][i] + pad for i in range(3))


def _interval(t, d, n):
    # The stretch of triangle t along direction d where it crosses the plane
    # with distances n (one per vertex; signs differ across the plane).
    pts = []
    for i in range(3):
        j = (i + 1) % 3
        if (n[i] > 0) != (n[j] > 0) and n[i] != n[j]:
            s = n[i] / (n[i] - n[j])
            p = tuple(t[i][k] + s * (t[j][k] - t[i][k]) for k in range(3))
            pts.append(dot(p, d))
        if n[i] == 0:
            pts.append(dot(t[i], d))
    return (min(pts), max(pts)) if pts else None


def tris_cross(t1, t2, eps=0.01):
    """True if the two triangles cut through each other by more than eps.
    Touching (a face resting on a face, an edge on a face) is not a cut."""
    n2 = cross(sub(t2[1], t2[0]), sub(t2[2], t2[0]))
    l2 = math.sqrt(dot(n2, n2))
    n1 = cross(sub(t1[1], t1[0]), sub(t1[2], t1[0]))
    l1 = math.sqrt(dot(n1, n1))
    if l1 == 0 or l2 == 0:
        return False
    d1 = [dot(sub(v, t2[0]), n2) / l2 for v in t1]
    if min(d1) > -eps or max(d1) < eps:
        return False
    d2 = [dot(sub(v, t1[0]), n1) / l1 for v in t2]
    if min(d2) > -eps or max(d2) < eps:
        return False
    d = cross(n1, n2)
    ld = math.sqrt(dot(d, d))
    if ld == 0:
        return False
    d = (d[0] / ld, d[1] / ld, d[2] / ld)
    i1 = _interval(t1, d, d1)
    i2 = _interval(t2, d, d2)
    if i1 is None or i2 is None:
        return False
    return min(i1[1], i2[1]) - max(i1[0], i2[0]) > eps


def crossings(mesh_a, grid_b, eps=0.01, limit=50):
    """Points where triangles of mesh_a cut through those of grid_b."""
    found = []
    for t in mesh_a:
        box = _tri_box(t)
        for j in grid_b.near(box):
            u = grid_b.tris[j]
            if _boxes_overlap(box, _tri_box(u)) and tris_cross(t, u, eps):
                found.append(tuple(sum(v[k] for v in t) / 3 for k in range(3)))
                break
        if len(found) >= limit:
            break
    return found


def _ray_hits(origin, d, tris, ids, skip=1e-6):
    # Distances along the ray to each triangle it passes through (Moller-Trumbore).
    out = []
    for i in ids:
        a, b, c = tris[i]
        e1, e2 = sub(b, a), sub(c, a)
        p = cross(d, e2)
        det = dot(e1, p)
        if abs(det) < 1e-12:
            continue
        inv = 1.0 / det
        s = sub(origin, a)
        u = dot(s, p) * inv
        if u < 0 or u > 1:
            continue
        q = cross(s, e1)
        v = dot(d, q) * inv
        if v < 0 or u + v > 1:
            continue
        t = dot(e2, q) * inv
        if t > skip:
            out.append(t)
    return out


def inside(point, grid):
    """Is the point inside the closed mesh? (Parity of crossings along a
    slightly tilted ray, so it does not run along an edge.)"""
    d = (0.0123, 0.0071, 1.0)
    ln = math.sqrt(dot(d, d))
    d = (d[0] / ln, d[1] / ln, d[2] / ln)
    far = grid.box[1][2] - point[2] + 1
    if far <= 0:
        return False
    end = (point[0] + d[0] * far, point[1] + d[1] * far, point[2] + d[2] * far)
    box = (tuple(min(point[k], end[k]) for k in range(3)), tuple(max(point[k], end[k]) for k in range(3)))
    hits = _ray_hits(point, d, grid.tris, grid.near(box), skip=0.0)
    # one crossing counted once even where the ray meets an edge of two triangles
    hits = sorted(set(round(h, 6) for h in hits))
    return len(hits) % 2 == 1


def thinnest(tris, grid, limit, samples_per_mm2=0.5, keep=None):
    """Sample the surface, cast a ray inward from each sample and measure how
    far it runs through material. Returns (thickness, point) for the
    thinnest place found below ``limit`` (or (None, None)). ``keep(point)``,
    if given, says which samples count."""
    best, where = None, None
    for t in tris:
        n = normal(*t)
        if n == (0.0, 0.0, 0.0):
            continue
        d = (-n[0], -n[1], -n[2])
        a = area(t)
        k = max(1, min(12, int(a * samples_per_mm2)))
        for s in range(k):
            # spread samples over the triangle (a fixed low-discrepancy
            # pattern), pulled 10% toward its centre: a sample on an edge
            # would measure along the neighbouring face instead of across
            u = (((s + 0.5) * 0.618034) % 1.0)
            v = (((s + 0.5) * 0.414214 + 0.25) % 1.0)
            if u + v > 1:
                u, v = 1 - u, 1 - v
            if k == 1:
                u = v = 1 / 3
            u, v = 1 / 3 + 0.9 * (u - 1 / 3), 1 / 3 + 0.9 * (v - 1 / 3)
            p = tuple(t[0][i] + u * (t[1][i] - t[0][i]) + v * (t[2][i] - t[0][i]) for i in range(3))
            if keep is not None and not keep(p):
                continue
            o = (p[0] + d[0] * 1e-4, p[1] + d[1] * 1e-4, p[2] + d[2] * 1e-4)
            e = (o[0] + d[0] * limit, o[1] + d[1] * limit, o[2] + d[2] * limit)
            box = (tuple(min(o[i], e[i]) for i in range(3)), tuple(max(o[i], e[i]) for i in range(3)))
            hits = [h for h in _ray_hits(o, d, grid.tris, grid.near(box), skip=1e-3) if h < limit]
            if hits:
                h = min(hits) + 1e-4
                if best is None or h < best:
                    best, where = h, p
    return best, where


def slice_z(tris, z):
    """Closed loops where the plane at height z cuts the mesh, as lists of
    (x, y); segments are chained end to end."""
    segs = []
    for t in tris:
        pts = []
        for i in range(3):
            a, b = t[i], t[(i + 1) % 3]
            if (a[2] - z) * (b[2] - z) < 0:
                s = (z - a[2]) / (b[2] - a[2])
                pts.append((a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])))
        if len(pts) == 2:
            segs.append(pts)
    key = lambda p: (round(p[0], 3), round(p[1], 3))  # noqa: E731
    ends = {}
    for i, (a, b) in enumerate(segs):
        ends.setdefault(key(a), []).append(i)
        ends.setdefault(key(b), []).append(i)
    used = [False] * len(segs)
    loops = []
    for i in range(len(segs)):
        if used[i]:
            continue
        used[i] = True
        loop = [segs[i][0], segs[i][1]]
        while True:
            nxt = None
            for j in ends.get(key(loop[-1]), ()):
                if not used[j]:
                    nxt = j
                    break
            if nxt is None:
                break
            used[nxt] = True
            a, b = segs[nxt]
            loop.append(b if key(a) == key(loop[-1]) else a)
        loops.append(loop)
    return loops


def loop_area(loop):
    return 0.5 * sum(loop[i][0] * loop[i + 1][1] - loop[i + 1][0] * loop[i][1]
                     for i in range(len(loop) - 1))


def loop_box(loop):
    xs = [p[0] for p in loop]
    ys = [p[1] for p in loop]
    return (min(xs), min(ys)), (max(xs), max(ys))


def loop_centre(loop):
    (x0, y0), (x1, y1) = loop_box(loop)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _hits_segment(o, d, t):
    # Moller-Trumbore: the parameter (0..1 along d) where the segment o + s*d
    # crosses triangle t, or None.
    a, b, c = t
    e1, e2 = sub(b, a), sub(c, a)
    p = cross(d, e2)
    det = dot(e1, p)
    if abs(det) < 1e-12:
        return None
    inv = 1.0 / det
    s = sub(o, a)
    u = dot(s, p) * inv
    if u < 0 or u > 1:
        return None
    q = cross(s, e1)
    v = dot(d, q) * inv
    if v < 0 or u + v > 1:
        return None
    h = dot(e2, q) * inv
    return h if 0 < h < 1 else None


class Occluders:
    """Opaque triangles, for sight lines: does anything stand between a
    point and an eye? A ray walks the grid's cells (3D DDA, Amanatides and
    Woo) from its start until it leaves the triangles' bounding box, testing
    only the triangles in the cells it passes through."""

    def __init__(self, tris, cell=3.0):
        self.grid = Grid(tris, cell)
        self.tris = tris
        self.cell = cell
        (self.lo, self.hi) = self.grid.box

    def blocked(self, a, b):
        """True if a triangle crosses the segment from a to b (a excluded)."""
        if not self.tris:
            return False
        d = sub(b, a)
        # clip the segment to the box (slab method)
        t0, t1 = 0.0, 1.0
        for k in range(3):
            if abs(d[k]) < 1e-12:
                if a[k] < self.lo[k] or a[k] > self.hi[k]:
                    return False
                continue
            u = (self.lo[k] - a[k]) / d[k]
            w = (self.hi[k] - a[k]) / d[k]
            if u > w:
                u, w = w, u
            t0, t1 = max(t0, u), min(t1, w)
            if t0 > t1:
                return False
        c = self.cell
        p = tuple(a[k] + d[k] * t0 for k in range(3))
        idx = [int(math.floor(p[k] / c)) for k in range(3)]
        step, tmax, tdelta = [0, 0, 0], [math.inf] * 3, [math.inf] * 3
        for k in range(3):
            if d[k] > 0:
                step[k] = 1
                tmax[k] = ((idx[k] + 1) * c - a[k]) / d[k]
                tdelta[k] = c / d[k]
            elif d[k] < 0:
                step[k] = -1
                tmax[k] = (idx[k] * c - a[k]) / d[k]
                tdelta[k] = -c / d[k]
        seen = set()
        cells = self.grid.cells
        t = t0
        while t <= t1:
            for i in cells.get((idx[0], idx[1], idx[2]), ()):
                if i not in seen:
                    seen.add(i)
                    if _hits_segment(a, d, self.tris[i]) is not None:
                        return True
            k = 0 if tmax[0] <= tmax[1] and tmax[0] <= tmax[2] else (1 if tmax[1] <= tmax[2] else 2)
            t = tmax[k]
            tmax[k] += tdelta[k]
            idx[k] += step[k]
        return False
