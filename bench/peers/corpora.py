"""The two corpora of bench_peers: Debian's word lists, built row for row as `nrt demo` builds
its sample (src/cli/demo.c), and a multilingual mix whose rows have the shapes the six UDFs
are for (names, e-mail addresses, ids, dashed codes) written in many scripts."""
import random

WORD_LISTS = ("/usr/share/dict/american-english", "/usr/share/dict/ngerman",
              "/usr/share/dict/french", "/usr/share/dict/spanish")

_MASK64 = (1 << 64) - 1


def load_words():
    """Every non-empty valid UTF-8 line of the word lists, in file order (demo.c's
    load_words: a line ends at its first CR or LF; missing files are skipped)."""
    words = []
    for path in WORD_LISTS:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        for line in data.split(b"\n"):
            line = line.split(b"\r", 1)[0]
            if not line:
                continue
            try:
                words.append(line.decode("utf-8"))
            except UnicodeDecodeError:
                pass
    return words


def word_rows(rows):
    """demo.c's make_sample: row i is one to three random words joined by a space; every
    eighth row the first one or two characters of a word, so both branches of the seed UDF
    run. The same 64-bit LCG and seed, so the rows are the demo's."""
    words = load_words()
    if not words:
        raise SystemExit("bench_peers: no word list under /usr/share/dict (install wamerican, "
                         "wngerman, wfrench, wspanish)")
    n = len(words)
    state = 20240611
    out = []
    append = out.append
    for i in range(rows):
        state = (state * 6364136223846793005 + 1442695040888963407) & _MASK64
        if i % 8 == 7:
            word = words[(state >> 33) % n]
            state = (state * 6364136223846793005 + 1442695040888963407) & _MASK64
            append(word[:(state >> 33) % 2 + 1])
        else:
            nw = (state >> 33) % 3 + 1
            picked = []
            for _ in range(nw):
                state = (state * 6364136223846793005 + 1442695040888963407) & _MASK64
                picked.append(words[(state >> 33) % n])
            append(" ".join(picked))
    return out


# Words of the mix: Greek (final sigma, accents, iota subscript), Turkish dotted and dotless i,
# German sharp s, ligatures, Cyrillic, Armenian, CJK, Hangul, kana, Arabic, Hebrew, emoji (ZWJ
# sequences, skin tones, flags), combining marks, titlecase digraphs, and plain ASCII.
_WORDS = (
    "ΟΔΥΣΣΕΥΣ", "Σίσυφος", "ὀδυσσεύς", "λόγος", "ΣΟΦΟΣ", "ἀρετή", "ᾳδη", "ΐσως", "Ἀθῆναι",
    "İstanbul", "ılık", "IĞDIR", "şişli", "Çağlayan", "KIRIK", "iyi",
    "straße", "Maß", "GROẞ", "Fußgänger", "Äpfel", "ÖLSÄURE",
    "ﬁnance", "ﬂoß", "œuvre", "Ñandú", "ŉoël", "ǅemal", "ǆungla", "ﬓ",
    "Москва", "ёлка", "ЩЁКИ", "Երևան", "և",
    "東京都", "北京市", "서울특별시", "ひらがな", "カタカナ", "漢字",
    "مرحبا", "שלום", "नमस्ते",
    "😀", "👍🏽", "🇩🇪", "👨‍👩‍👧", "❤️", "🎉party",
    "e\u0301cole", "n\u0303o", "a\u0308rger", "Z\u0335a\u0335l\u0335g\u0335o\u0335",
    "hello", "World", "data", "x1y", "o'neil", "McDonald", "ABC", "vowels", "queue", "rhythm",
)
_SPACES = (" ", " ", " ", " ", "  ", "\t", " \t ", "\u3000", "\xa0", "\u2009", "\n")
_DOMAINS = ("example.com", "EXAMPLE.ORG", "δοκιμή.ΕΛ", "пример.РФ", "例え.テスト", "straße.DE",
            "İNCE.com.tr", "mail.ΣΟΦΟΣ.gr", "x.io")
_DIGITS = ("0123456789", "0123456789", "0123456789", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９",
           "०१२३४५६७८९")
_BAD_IDS = ("", " ", "1.5", "12a", "0x1F", "--3", "1__0", "_7", "Ⅻ", "²3", "9 9", "+", "-")


def _pad(rng, s):
    """Leading and trailing whitespace on some rows."""
    if rng.random() < 0.2:
        s = rng.choice(_SPACES) + s
    if rng.random() < 0.2:
        s = s + rng.choice(_SPACES)
    return s


def _text(rng):
    k = rng.randint(1, 4)
    parts = [rng.choice(_WORDS)]
    for _ in range(k - 1):
        parts.append(rng.choice(_SPACES))
        parts.append(rng.choice(_WORDS))
    return _pad(rng, "".join(parts))


def _email(rng):
    local = ".".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 2)))
    at = "@@" if rng.random() < 0.02 else "@"
    if rng.random() < 0.05:
        at = ""
    return _pad(rng, local + at + rng.choice(_DOMAINS))


def _id(rng):
    if rng.random() < 0.12:
        return rng.choice(_BAD_IDS)
    digits = rng.choice(_DIGITS)
    s = "".join(rng.choice(digits) for _ in range(rng.randint(1, 12)))
    if rng.random() < 0.03 and len(s) > 1:
        s = s[:1] + "_" + s[1:]
    sign = rng.random()
    if sign < 0.1:
        s = "-" + s
    elif sign < 0.15:
        s = "+" + s
    return _pad(rng, s)


def _code(rng):
    parts = []
    for _ in range(rng.randint(2, 5)):
        w = rng.choice(_WORDS)
        parts.append(w[:rng.randint(1, 4)] + str(rng.randint(0, 999)))
    return _pad(rng, "-".join(parts))


_SHAPES = (_text, _text, _email, _id, _code)


def mix_rows(rows):
    """Deterministic multilingual rows: 40% free text (one to four words, odd whitespace),
    20% e-mail addresses (a few with two '@' or none), 20% ids (ASCII, Arabic-Indic, fullwidth
    and Devanagari digits, signs, an underscore, 12% unparsable; at most 12 digits, so they
    fit in 64 bits), 20% dashed codes."""
    rng = random.Random(20240611)
    return [rng.choice(_SHAPES)(rng) for _ in range(rows)]
