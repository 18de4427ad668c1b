"""The six UDFs of bench_peers, each as the Python function that CPython, nrt, Numba and the
peers' Python-UDF hooks run, and as each engine's native form (None where the engine has no
native way to say it; `NA_WHY` says why). Engines are imported inside the forms: the worker
sets POLARS_MAX_THREADS before anything imports Polars."""


def seed(string):
    if len(string) > 2:
        result = string.upper()      # new allocation
    else:
        result = string + string     # new allocation
    return result + 'abc'


def title(s):
    return ' '.join(s.split()).title()


def domain(s):
    return s.partition('@')[2].lower()


def idfmt(s):
    return f'{int(s):08d}'


def idfmt_or_null(s):
    """idfmt with parse failures as None: what nrt's errors="null" does, for the engines that
    run Python per row."""
    try:
        return f'{int(s):08d}'
    except ValueError:
        return None


def clean(s):
    return s.replace('-', '').strip()[:10]


def vowels(s):
    n = 0
    for c in s:
        if c in 'aeiouAEIOU':
            n += 1
    return n


# ---- Polars expressions (run lazily on the streaming engine, the fastest form measured)

def _pl_seed(s, pl):
    upper_or_twice = pl.when(s.str.len_chars() > 2).then(s.str.to_uppercase()).otherwise(s + s)
    return upper_or_twice + pl.lit("abc")


def _pl_title(s, pl):
    return s.str.strip_chars().str.replace_all(r"\s+", " ").str.to_titlecase()


def _pl_domain(s, pl):
    return s.str.replace(r"^[^@]*(@|$)", "").str.to_lowercase()


def _pl_idfmt(s, pl):
    return s.str.strip_chars().cast(pl.Int64, strict=False).cast(pl.String).str.zfill(8)


def _pl_clean(s, pl):
    return s.str.replace_all("-", "", literal=True).str.strip_chars().str.slice(0, 10)


def _pl_vowels(s, pl):
    return s.str.count_matches("[aeiouAEIOU]")


# ---- pyarrow.compute

def _pa_seed(a, pc):
    x = pc.if_else(pc.greater(pc.utf8_length(a), 2), pc.utf8_upper(a),
                   pc.binary_join_element_wise(a, a, ""))
    return pc.binary_join_element_wise(x, "abc", "")


def _pa_title(a, pc):
    words = pc.utf8_split_whitespace(pc.utf8_trim_whitespace(a))
    return pc.utf8_title(pc.binary_join(words, " "))


def _pa_domain(a, pc):
    return pc.utf8_lower(pc.replace_substring_regex(a, "^[^@]*(@|$)", "", max_replacements=1))


def _pa_idfmt(a, pc):
    import pyarrow as pa
    t = pc.utf8_trim_whitespace(a)
    t = pc.replace_substring_regex(t, r"^\+([0-9])", r"\1", max_replacements=1)
    ok = pc.match_substring_regex(t, r"^-?[0-9]+$")  # cast() fails on the whole array
    n = pc.cast(pc.if_else(ok, t, pa.scalar(None, pa.string())), pa.int64())
    return pc.utf8_zero_fill(pc.cast(n, pa.string()), 8)


def _pa_clean(a, pc):
    return pc.utf8_slice_codeunits(pc.utf8_trim_whitespace(pc.replace_substring(a, "-", "")),
                                   0, 10)


def _pa_vowels(a, pc):
    return pc.count_substring_regex(a, "[aeiouAEIOU]")


# ---- pandas .str over the pyarrow-backed str dtype

def _pd_seed(s, pd):
    return s.str.upper().where(s.str.len() > 2, s + s) + "abc"


def _pd_title(s, pd):
    return s.str.strip().str.replace(r"\s+", " ", regex=True).str.title()


def _pd_domain(s, pd):
    return s.str.partition("@")[2].str.lower()


def _pd_idfmt(s, pd):
    t = s.str.strip()
    n = pd.to_numeric(t.where(t.str.fullmatch(r"[+-]?[0-9]+")), errors="coerce").astype("Int64")
    return n.astype("str").str.zfill(8).where(n.notna())


def _pd_clean(s, pd):
    return s.str.replace("-", "", regex=False).str.strip().str.slice(0, 10)


def _pd_vowels(s, pd):
    return s.str.count("[aeiouAEIOU]")


class Udf:
    """One benchmark UDF: `fn` is the source nrt compiles (and Numba), `py` the function the
    engines that call Python per row run (fn, or fn with failures as None), `out` 'str' or
    'int'; the native forms are None where the engine cannot say it."""

    def __init__(self, name, fn, py, out, polars, duckdb, pyarrow, pandas, numba=True,
                 null_errors=False):
        self.name, self.fn, self.py, self.out = name, fn, py, out
        self.polars, self.duckdb, self.pyarrow, self.pandas = polars, duckdb, pyarrow, pandas
        self.numba = fn if numba else None
        self.null_errors = null_errors


UDFS = (
    Udf("seed", seed, seed, "str", _pl_seed,
        "CASE WHEN length(s) > 2 THEN upper(s) ELSE s || s END || 'abc'", _pa_seed, _pd_seed),
    Udf("title", title, title, "str", _pl_title, None, _pa_title, _pd_title),
    Udf("domain", domain, domain, "str", _pl_domain,
        "lower(CASE WHEN strpos(s, '@') > 0 THEN substr(s, strpos(s, '@') + 1) ELSE '' END)",
        _pa_domain, _pd_domain),
    Udf("idfmt", idfmt, idfmt_or_null, "str", _pl_idfmt,
        "format('{:08d}', TRY_CAST(s AS BIGINT))", _pa_idfmt, _pd_idfmt, numba=False,
        null_errors=True),
    Udf("clean", clean, clean, "str", _pl_clean, "substr(trim(replace(s, '-', '')), 1, 10)",
        _pa_clean, _pd_clean),
    Udf("vowels", vowels, vowels, "int", _pl_vowels,
        "len(regexp_extract_all(s, '[aeiouAEIOU]'))", _pa_vowels, _pd_vowels),
)

# Why an engine has no native form of a UDF (printed under the table).
NA_WHY = {
    ("title", "duckdb"): "DuckDB SQL has no title-case function (a per-word upper(w[1]) || "
                         "lower(w[2:]) is not str.title: it mismatches 2/3 of the mix rows)",
    ("idfmt", "numba"): "Numba cannot call int() on a str",
}
