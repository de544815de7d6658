#!/usr/bin/env python3
"""The loc code, format v1, in Python's standard library: a second implementation, written from
docs/code-format.md alone (section numbers below are that page's).

It reads the table file (revisions 2 and 3 of format 1), encodes a point to the code of the 3 m cell that
holds it, decodes a code to its cell, gives a code's eight neighbours, and normalises written codes.
Run it as

    python3 loc_code.py golden TABLE CSV   check every golden row, both ways; exit 1 on any mismatch
    python3 loc_code.py encode TABLE       stdin: "lat lng" per line; stdout: code or error per line
    python3 loc_code.py decode TABLE       stdin: a JSON string per line; stdout: the cell as JSON, or the error
    python3 loc_code.py neighbours TABLE   stdin: a JSON string per line; stdout: the neighbours as JSON, or the error
    python3 loc_code.py normalize          stdin: a JSON string per line; stdout: JSON code or null

All arithmetic is on Python floats (IEEE 754 doubles, each operation correctly rounded) and ints;
`int / int` is a correctly rounded true division, as the formulas of section 2 require.
"""

import bisect
import json
import math
import sys

# Section 2: the grid.
BLOCK_SIZE = 1296
BANDS = 5148
ROWS = BANDS * BLOCK_SIZE
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Section 6 and 8: the one format and the revisions this reader knows.
MAGIC = b"LOCT"
FORMAT = 1
REVISIONS = (2, 3)
# Section 6: fills come with revision 3; section 6 numbers a block's squares.
FILLS_FROM = 3
FILL_SQUARE = 36
SQUARES = (BLOCK_SIZE // FILL_SQUARE) ** 2
# Section 4: what the border test says when no polygon holds the point.
NO_POLYGON = object()
# Revision 1 has no revision field: its band count stands where the revision is read.
REVISION_1_MARK = 5148
COORDINATE_SCALE = 100000


class LocError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class TableError(Exception):
    pass


class _Reader:
    """The byte grammar of section 6: unsigned LEB128 varints, zig-zag signed varints, ASCII."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def fail(self, why):
        raise TableError("table file: %s at byte %d" % (why, self.pos))

    def uint(self):
        value = 0
        shift = 0
        while True:
            if self.pos >= len(self.data):
                self.fail("unexpected end")
            b = self.data[self.pos]
            self.pos += 1
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7

    def int(self):
        z = self.uint()
        return z // 2 if z % 2 == 0 else -(z + 1) // 2

    def ascii(self, count):
        if self.pos + count > len(self.data):
            self.fail("unexpected end")
        text = self.data[self.pos:self.pos + count].decode("ascii")
        self.pos += count
        return text


class Table:
    """The table file of section 6, indexed for encode and decode."""

    def __init__(self, data):
        r = _Reader(data)
        if r.ascii(4) != MAGIC.decode():
            r.fail("bad magic")
        fmt = r.uint()
        if fmt != FORMAT:
            r.fail("format %d is not one this reader knows (it reads format %d)" % (fmt, FORMAT))
        revision = r.uint()
        if revision not in REVISIONS:
            hint = " (revision 1 has no border polygons)" if revision == REVISION_1_MARK else ""
            r.fail("revision %d of format %d is not one this reader knows%s (it reads revisions %s)"
                   % (revision, fmt, hint, ", ".join(map(str, REVISIONS))))
        self.revision = revision
        bands = r.uint()
        self.columns = [r.uint() for _ in range(bands)]
        self.countries = [r.ascii(2) for _ in range(r.uint())]
        self.country_index = {c: i for i, c in enumerate(self.countries)}
        self.classes = []
        for _ in range(r.uint()):
            pure = r.uint() == 1
            members = [r.uint() for _ in range(r.uint())]
            self.classes.append((pure, members))

        # Runs per band, and one pass in file order numbers every country's blocks (section 6).
        self.band_firsts = []  # per band: first block of each run, ascending
        self.band_runs = []  # per band: run indexes
        self.runs = []  # (band, first, length, class)
        self.run_bases = []  # per run: {country: number of its first block}
        counts = [0] * len(self.countries)
        self.country_runs = [[] for _ in self.countries]  # per country: (base, run), ascending
        for band in range(bands):
            firsts, indexes = [], []
            nxt = 0
            for _ in range(r.uint()):
                first = nxt + r.uint()
                length = r.uint()
                cls = r.uint()
                nxt = first + length
                run = len(self.runs)
                self.runs.append((band, first, length, cls))
                bases = {}
                for m in self.classes[cls][1]:
                    bases[m] = counts[m]
                    self.country_runs[m].append((counts[m], run))
                    counts[m] += length
                self.run_bases.append(bases)
                firsts.append(first)
                indexes.append(run)
            self.band_firsts.append(firsts)
            self.band_runs.append(indexes)
        self.block_counts = counts
        self.country_bases = [[base for base, _ in runs] for runs in self.country_runs]

        # The border section (section 6), for the border test of section 4.
        self.border_codes = [r.ascii(2) for _ in range(r.uint())]
        self.polygons = []  # (code or None, (minX, minY, maxX, maxY), [[(x, y), ...], ...])
        for p in range(r.uint()):
            code = r.uint()
            if code > len(self.border_codes):
                r.fail("polygon %d names code %d of %d" % (p, code, len(self.border_codes)))
            box = tuple(r.int() / COORDINATE_SCALE for _ in range(4))
            rings = []
            for _ in range(r.uint()):
                x = y = 0
                ring = []
                for _ in range(r.uint()):
                    x += r.int()
                    y += r.int()
                    ring.append((x / COORDINATE_SCALE, y / COORDINATE_SCALE))
                rings.append(ring)
            self.polygons.append((self.border_codes[code - 1] if code else None, box, rings))

        # The fill section (sections 6 and 10): per block, one country index or 1296 squares' (-1: none).
        self.fills = {}
        self.run_blocks = list(counts)  # per country: its blocks in runs; added blocks come after
        self.added = [[] for _ in self.countries]  # per country: (band, block, run) of its added blocks
        self.added_numbers = {}  # (band, block, country): number
        if revision >= FILLS_FROM:
            band, block = 0, -1
            for i in range(r.uint()):
                step = r.uint()
                field = r.uint()
                band, block = band + step, (block + 1 + field if step == 0 else field)
                if band >= bands or block >= -(-self.columns[band] // BLOCK_SIZE):
                    r.fail("fill %d is in band %d block %d, outside the grid" % (i, band, block))
                country = r.uint() - 1
                if country >= len(self.countries):
                    r.fail("fill %d names country %d of %d" % (i, country, len(self.countries)))
                if country >= 0:
                    fill = country
                else:
                    fill = []
                    for _ in range(r.uint()):
                        length = r.uint()
                        square = r.uint() - 1
                        if length == 0 or square >= len(self.countries):
                            r.fail("fill %d: a bad run of squares" % i)
                        fill.extend([square] * length)
                    if len(fill) != SQUARES:
                        r.fail("fill %d: square runs cover %d squares, not %d" % (i, len(fill), SQUARES))
                run = self.run_at(band, block)
                if run is None or self.classes[self.runs[run][3]][0]:
                    r.fail("fill %d is not in a mixed block" % i)
                self.fills[(band, block)] = fill
                # Section 5: a fill country that does not touch the block gains it, after its last block.
                members = self.classes[self.runs[run][3]][1]
                for country in sorted(set([fill] if isinstance(fill, int) else fill) - {-1}):
                    if country not in members:
                        self.added_numbers[(band, block, country)] = counts[country]
                        self.added[country].append((band, block, run))
                        counts[country] += 1
        if r.pos != len(data):
            r.fail("trailing bytes")

    @classmethod
    def read(cls, path):
        with open(path, "rb") as f:
            return cls(f.read())

    def run_at(self, band, block):
        """The run of `band` holding `block`, or None."""
        firsts = self.band_firsts[band]
        i = bisect.bisect_right(firsts, block) - 1
        if i < 0:
            return None
        run = self.band_runs[band][i]
        _, first, length, _ = self.runs[run]
        return run if block < first + length else None

    def border_country(self, lat, lng):
        """Section 4: the code of the first polygon holding the point (None: it has no code), or NO_POLYGON."""
        for code, (min_x, min_y, max_x, max_y), rings in self.polygons:
            if not (min_x <= lng and lng <= max_x and min_y <= lat and lat <= max_y):
                continue
            inside = False
            for ring in rings:
                n = len(ring)
                for j in range(n):
                    x1, y1 = ring[j]
                    x2, y2 = ring[j - 1]  # ring[-1] is the last point, as section 4 says
                    if (y1 > lat) != (y2 > lat) and lng < (x2 - x1) * (lat - y1) / (y2 - y1) + x1:
                        inside = not inside
            if inside:
                return code
        return NO_POLYGON

    def block_number(self, run, country, band, block):
        """Section 5: the number of `block` (of `run`) among `country`'s blocks, or None."""
        if country in self.run_bases[run]:
            return self.run_bases[run][country] + block - self.runs[run][1]
        return self.added_numbers.get((band, block, country))


# Section 2: edges, centres, and the row and column of a coordinate.
def south(r):
    return r * 180 / ROWS - 90


def west(c, n):
    return c * 360 / n - 180


def row_centre(r):
    return (2 * r + 1) * 90 / ROWS - 90


def col_centre(c, n):
    return (2 * c + 1) * 180 / n - 180


def row_of(lat):
    r = min(ROWS - 1, max(0, math.floor((lat + 90) * ROWS / 180)))
    while r > 0 and south(r) > lat:
        r -= 1
    while r < ROWS - 1 and south(r + 1) <= lat:
        r += 1
    return r


def col_of(lng, n):
    x = -180.0 if lng == 180 else lng
    c = min(n - 1, max(0, math.floor((x + 180) * n / 360)))
    while c > 0 and west(c, n) > x:
        c -= 1
    while c < n - 1 and west(c + 1, n) <= x:
        c += 1
    return c


# Section 3: the written form.
WHITE_SPACE = frozenset([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680] + list(range(0x2000, 0x200B))
                        + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF])
HYPHEN = 0x2D
LETTERS = frozenset(range(ord("A"), ord("Z") + 1)) | frozenset(range(ord("a"), ord("z") + 1))
DIGITS = frozenset(range(ord("0"), ord("9") + 1))


def normalize(text):
    """The canonical form of a written code, or None when it is not one (section 3)."""
    if not isinstance(text, str):
        return None
    points = [ord(ch) for ch in text]
    start, end = 0, len(points)
    while start < end and points[start] in WHITE_SPACE:
        start += 1
    while end > start and points[end - 1] in WHITE_SPACE:
        end -= 1
    points = points[start:end]
    if len(points) > 14:
        return None
    groups = []
    i = 0
    for size, allowed in ((2, LETTERS), (4, LETTERS | DIGITS), (4, LETTERS | DIGITS)):
        if groups and i < len(points) and (points[i] == HYPHEN or points[i] in WHITE_SPACE):
            i += 1
        group = points[i:i + size]
        if len(group) != size or any(p not in allowed for p in group):
            return None
        groups.append("".join(chr(p) for p in group).upper())
        i += size
    return "-".join(groups) if i == len(points) else None


def digits(value, count):
    out = []
    for _ in range(count):
        value, d = divmod(value, 36)
        out.append(ALPHABET[d])
    return "".join(reversed(out))


def _cell(table, country, number, r, c):
    n = table.columns[r // BLOCK_SIZE]
    return {
        "loc_code": "%s-%s-%s%s" % (country, digits(number, 4), digits(r % BLOCK_SIZE, 2), digits(c % BLOCK_SIZE, 2)),
        "latitude": row_centre(r),
        "longitude": col_centre(c, n),
        "country_code": country,
        "cell": {"north": south(r + 1), "south": south(r), "east": west(c + 1, n), "west": west(c, n)},
    }


def _mixed_country(table, r, c):
    """Index of the country of a cell centre in a mixed block (sections 4 and 10), or -1."""
    code = table.border_country(row_centre(r), col_centre(c, table.columns[r // BLOCK_SIZE]))
    if code is NO_POLYGON:
        fill = table.fills.get((r // BLOCK_SIZE, c // BLOCK_SIZE), -1)
        if isinstance(fill, int):
            return fill
        return fill[(BLOCK_SIZE // FILL_SQUARE) * ((r % BLOCK_SIZE) // FILL_SQUARE) + (c % BLOCK_SIZE) // FILL_SQUARE]
    return table.country_index.get(code, -1) if code is not None else -1


def encode(table, lat, lng):
    """Section 7: the cell of (lat, lng) and its code."""
    for name, value, limit in (("lat", lat, 90), ("lng", lng, 180)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (-limit <= value <= limit):
            raise LocError("validation_error", "%s must be a finite number from %d to %d" % (name, -limit, limit))
    r = row_of(lat)
    band = r // BLOCK_SIZE
    c = col_of(lng, table.columns[band])
    block = c // BLOCK_SIZE
    run = table.run_at(band, block)
    if run is not None:
        _, first, _, cls = table.runs[run]
        pure, members = table.classes[cls]
        country = members[0] if pure else _mixed_country(table, r, c)
        number = table.block_number(run, country, band, block) if country >= 0 else None
        if number is not None:
            return _cell(table, table.countries[country], number, r, c)
    raise LocError("unsupported_location", "no country's codes cover %r, %r" % (lat, lng))


def decode(table, text):
    """Section 7: the cell of a written code."""
    code = normalize(text)
    if code is None:
        raise LocError("invalid_code", "expected a code like FR-1A2B-3C4D, received %r" % (text,))
    country = table.country_index.get(code[:2], -1)
    number = int(code[3:7], 36)
    rr = int(code[8:10], 36)
    cc = int(code[10:12], 36)
    if country >= 0 and number < table.block_counts[country]:
        if number >= table.run_blocks[country]:
            # Section 5: an added block.
            band, block, run = table.added[country][number - table.run_blocks[country]]
            base, length, cls = number, 1, table.runs[run][3]
        else:
            i = bisect.bisect_right(table.country_bases[country], number) - 1
            base, run = table.country_runs[country][i]
            band, first, length, cls = table.runs[run]
            block = first + number - base
        r = band * BLOCK_SIZE + rr
        c = block * BLOCK_SIZE + cc
        if number - base < length and c < table.columns[band]:
            if table.classes[cls][0] or _mixed_country(table, r, c) == country:
                return _cell(table, code[:2], number, r, c)
    raise LocError("code_not_found", "no cell has the code %r" % (text,))


# Section 7, Neighbours: the eight cells beside a cell, clockwise from north, as (east, north) steps.
NEIGHBOUR_STEPS = (("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1),
                   ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1))


def neighbour_cell(table, r, c, east, north):
    """The cell `east` columns and `north` rows from (r, c), or None past a pole."""
    r2 = r + north
    if r2 < 0 or r2 >= ROWS:
        return None
    n, n2 = table.columns[r // BLOCK_SIZE], table.columns[r2 // BLOCK_SIZE]
    c2 = c if r2 // BLOCK_SIZE == r // BLOCK_SIZE else col_of(col_centre(c, n), n2)
    return r2, (c2 + east) % n2


def neighbours(table, text):
    """Section 7: the codes of the eight neighbours of a code's cell, None where a cell has none."""
    cell = decode(table, text)
    r = row_of(cell["latitude"])
    c = col_of(cell["longitude"], table.columns[r // BLOCK_SIZE])
    out = {}
    for name, east, north in NEIGHBOUR_STEPS:
        near = neighbour_cell(table, r, c, east, north)
        out[name] = None
        if near is not None:
            r2, c2 = near
            try:
                out[name] = encode(table, row_centre(r2), col_centre(c2, table.columns[r2 // BLOCK_SIZE]))["loc_code"]
            except LocError as error:
                if error.code != "unsupported_location":
                    raise
    return out


def check_golden(table, path):
    """Every golden row (section 8), both ways; returns the failures."""
    failures = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().strip().split("\n")
    header = lines[0].split(",")
    for line in lines[1:]:
        row = dict(zip(header, line.split(",")))
        lat, lng = float(row["lat"]), float(row["lng"])
        try:
            cell = encode(table, lat, lng)
        except LocError as error:
            if error.code != row["error"]:
                failures.append("%s: encode says %s, expected %s" % (row["name"], error.code, row["error"] or row["loc_code"]))
            continue
        if row["error"]:
            failures.append("%s: encode gives %s, expected %s" % (row["name"], cell["loc_code"], row["error"]))
            continue
        expected = {
            "loc_code": row["loc_code"],
            "latitude": float(row["latitude"]),
            "longitude": float(row["longitude"]),
            "country_code": row["loc_code"][:2],
            "cell": {k: float(row[k]) for k in ("north", "south", "east", "west")},
        }
        if cell != expected:
            failures.append("%s: encode gives %r, expected %r" % (row["name"], cell, expected))
        try:
            back = decode(table, row["loc_code"])
        except LocError as error:
            failures.append("%s: decode says %s" % (row["name"], error.code))
            continue
        if back != expected:
            failures.append("%s: decode gives %r, expected %r" % (row["name"], back, expected))
    return len(lines) - 1, failures


def main(argv):
    if len(argv) < 2 or argv[1] not in ("golden", "encode", "decode", "neighbours", "normalize"):
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[1]
    try:
        table = Table.read(argv[2]) if command != "normalize" else None
    except TableError as error:
        print(str(error), file=sys.stderr)
        return 1
    if command == "golden":
        count, failures = check_golden(table, argv[3])
        for failure in failures:
            print(failure)
        print("golden: %d rows, %d failed" % (count, len(failures)))
        return 1 if failures else 0
    for line in sys.stdin:
        if command == "normalize":
            print(json.dumps(normalize(json.loads(line))))
            continue
        try:
            if command == "encode":
                lat, lng = (float(v) for v in line.split())
                print(encode(table, lat, lng)["loc_code"])
            elif command == "decode":
                print(json.dumps(decode(table, json.loads(line))))
            else:
                print(json.dumps(neighbours(table, json.loads(line))))
        except LocError as error:
            print(error.code if command == "encode" else json.dumps(error.code))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
