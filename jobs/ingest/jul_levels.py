"""java.util.logging's level names in every locale the JDK ships, as data with provenance.

``SimpleFormatter`` prints a record's second line as ``%4$s: %5$s``, where ``%4$s`` is
``Level.getLocalizedLevelName()``: the level's name looked up in the resource bundle
``sun.util.logging.resources.logging`` for the JVM's default locale. So a Chinese JVM prints
``信息: partitions assigned: […]`` where an English one prints ``INFO: …``. The names below are the
values of those bundles (``ALL`` and ``OFF`` left out: no record has them), at two points of the JDK's
history, because the translations changed:

* :data:`JDK_CURRENT`: ``src/java.logging/share/classes/sun/util/logging/resources/logging_<locale>.properties``
  (JDK 9 and later, openjdk/jdk);
* :data:`JDK_LEGACY`: ``jdk/src/share/classes/sun/util/logging/resources/logging_<locale>.properties``
  (JDK 6 to 8; most names in capitals, several left in English).

The root bundle (``logging.properties``) holds the English names (:data:`ENGLISH`). A value's leading
blanks are no part of it (``CONFIG= Konfig``: the properties format skips them).

The record's first line is ``%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s``, formatted in the JVM's
locale too: the month's abbreviation and the day half are the locale's (``9月 19, 2018 4:45:32 下午``,
``Sept. 19, 2018 4:45:32 PM``). :data:`MONTHS_CLDR`, :data:`MONTHS_COMPAT` and :data:`DAY_HALVES` are what
``java.util.Formatter`` prints for the same locales (rendered with the JDK: its CLDR data, the default since
JDK 9, and its COMPAT data, JDK 8's); :func:`english_date` turns such a date into the English one the
date-time grammar reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: the English names (the root bundle, and the level's own name): the levels a record can have
ENGLISH = ("SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER", "FINEST")

#: locale -> names in the order of :data:`ENGLISH` (JDK 9+)
JDK_CURRENT: dict[str, tuple[str, ...]] = {
    "de": ("Schwerwiegend", "Warnung", "Information", "Konfiguration", "Fein", "Feiner", "Am feinsten"),
    "es": ("Grave", "Advertencia", "Información", "Configurar", "Detallado", "Muy Detallado", "Más Detallado"),
    "fr": ("Grave", "Avertissement", "Infos", "Config", "Précis", "Plus précis", "Le plus précis"),
    "it": ("Grave", "Avvertenza", "Informazioni", "Configurazione", "Buono", "Migliore", "Ottimale"),
    "ja": ("重大", "警告", "情報", "構成", "普通", "詳細", "最も詳細"),
    "ko": ("심각", "경고", "정보", "구성", "미세", "보다 미세", "가장 미세"),
    "pt_BR": ("Grave", "Advertência", "Informações", "Configuração", "Detalhado", "Mais Detalhado", "O Mais Detalhado"),
    "sv": ("Allvarlig", "Varning", "Info", "Konfig", "Fin", "Finare", "Finaste"),
    "zh_CN": ("严重", "警告", "信息", "配置", "详细", "较详细", "非常详细"),
    "zh_TW": ("嚴重", "警告", "資訊", "組態", "詳細", "較詳細", "最詳細"),
}  # fmt: skip
#: locale -> names in the order of :data:`ENGLISH` (JDK 6 to 8)
JDK_LEGACY: dict[str, tuple[str, ...]] = {
    "de": ("SCHWERWIEGEND", "WARNUNG", "INFO", "KONFIG", "FEIN", "FEINER", "AM FEINSTEN"),
    "es": ("GRAVE", "ADVERTENCIA", "INFO", "CONFIG", "FINA", "MÁS FINA", "LA MÁS FINA"),
    "fr": ("GRAVE", "ATTENTION", "INFO", "CONFIG", "FIN", "PLUS FIN", "LE PLUS FIN"),
    "it": ENGLISH,
    "ja": ("SEVERE", "WARNING", "情報", "CONFIG", "詳細レベル(低)", "FINER", "FINEST"),
    "ko": ("심각", "경고", "정보", "구성", "자세히", "더 자세히", "아주 자세히"),
    "pt_BR": ENGLISH,
    "sv": ("ALLVARLIG", "VARNING", "INFO", "KONFIG", "FIN", "FINARE", "FINAST"),
    "zh_CN": ("严重", "警告", "信息", "配置", "良好", "较好", "最好"),
    "zh_TW": ("SEVERE", "WARNING", "資訊", "CONFIG", "詳細", "FINER", "FINEST"),
}  # fmt: skip


def localized_names() -> dict[str, str]:
    """Every printed name -> its English level (the English names included): the bundles' values, and
    the current ones upper-cased in their locale, as ``Level.getLocalizedLevelName`` prints a name of
    the JDK's own bundle (JDK 17 and 25 print ``INFORMACIÓN``, ``INFORMAZIONI``, ``情報``)."""
    out = {name: name for name in ENGLISH}
    for table in (JDK_CURRENT, JDK_LEGACY):
        for names in table.values():
            for english, name in zip(ENGLISH, names):
                out.setdefault(name, english)
                out.setdefault(name.upper(), english)
    return out


#: printed name -> English level
LEVEL_OF: dict[str, str] = localized_names()
#: the alternation of every printed name (longest first, so that ``FINEST`` is not read as ``FINE``)
LEVEL_NAMES = "|".join(re.escape(n) for n in sorted(LEVEL_OF, key=lambda n: (-len(n), n)))


# ------------------------------------------------------------------------------ the head's date
#: ``%1$tb`` (the month's abbreviation) in each locale, January first, as java.util.Formatter prints it with
#: the JDK's CLDR locale data (the default since JDK 9; rendered with JDK 17 and 25, the same) and with its
#: legacy COMPAT data (JDK 8, and ``-Djava.locale.providers=COMPAT``); a locale not listed prints English
MONTHS_CLDR: dict[str, tuple[str, ...]] = {
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."),
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"),
    "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    "it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
    "ja": tuple(f"{m}月" for m in range(1, 13)),
    "ko": tuple(f"{m}월" for m in range(1, 13)),
    "pt_BR": ("jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."),
    "sv": ("jan.", "feb.", "mars", "apr.", "maj", "juni", "juli", "aug.", "sep.", "okt.", "nov.", "dec."),
    "zh_CN": tuple(f"{m}月" for m in range(1, 13)),
    "zh_TW": tuple(f"{m}月" for m in range(1, 13)),
}  # fmt: skip
_CJK_MONTHS = ("一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月")
MONTHS_COMPAT: dict[str, tuple[str, ...]] = {
    "de": ("Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"),
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"),
    "fr": MONTHS_CLDR["fr"],
    "it": MONTHS_CLDR["it"],
    "ja": tuple(str(m) for m in range(1, 13)),
    "ko": MONTHS_CLDR["ko"],
    "pt_BR": ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"),
    "sv": ("jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec"),
    "zh_CN": _CJK_MONTHS,
    "zh_TW": _CJK_MONTHS,
}  # fmt: skip
#: ``%1$Tp`` (the day half, upper-cased) in each locale: (AM, PM), CLDR then COMPAT where they differ
#: (CLDR's Spanish writes a no-break space: ``P.\u00a0M.``)
DAY_HALVES: dict[str, tuple[tuple[str, str], ...]] = {
    "es": (("A.\u00a0M.", "P.\u00a0M."), ("AM", "PM")),
    "ja": (("午前", "午後"),),
    "ko": (("오전", "오후"),),
    "sv": (("FM", "EM"),),
    "zh_CN": (("上午", "下午"),),
    "zh_TW": (("上午", "下午"),),
}
_ENGLISH_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _month_of() -> dict[str, int]:
    """Every printed month abbreviation -> its month (1..12); one that two locales print for two months
    is an error at import."""
    out: dict[str, int] = {}
    for table in (MONTHS_CLDR, MONTHS_COMPAT):
        for names in table.values():
            for m, name in enumerate(names, 1):
                if out.setdefault(name, m) != m:
                    raise ValueError(f"the month abbreviation {name!r} names two months")
    return out


#: printed month (localised) -> 1..12
MONTH_OF = _month_of()
#: printed day half (localised) -> ``AM`` / ``PM``
HALF_OF: dict[str, str] = {
    name: ("AM", "PM")[k] for halves in DAY_HALVES.values() for pair in halves for k, name in enumerate(pair)
}


def _alternation(names: Iterable[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(set(names), key=lambda n: (-len(n), n)))


#: the head's date in a localised default format: ``%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp``
#: (``9月 19, 2018 4:45:32 下午``, ``Sept. 19, 2018 4:45:32 PM``, ``sept 19, 2018 4:45:32 P. M.``)
LOCALIZED_DATE = (
    rf"(?:{_alternation(MONTH_OF)}) \d{{1,2}}, \d{{4}} \d{{1,2}}:\d{{2}}:\d{{2}} (?:AM|PM|{_alternation(HALF_OF)})"
)
_LOCALIZED = re.compile(rf"^({_alternation(MONTH_OF)}) (\d{{1,2}}, \d{{4}} \d{{1,2}}:\d{{2}}:\d{{2}}) (.+)$")


def english_date(ts: str) -> str | None:
    """A localised default head date as the English locale prints it (``9月 19, 2018 4:45:32 下午`` ->
    ``Sep 19, 2018 4:45:32 PM``), None when ``ts`` is not one or is English already."""
    m = _LOCALIZED.match(ts)
    if m is None:
        return None
    half = m.group(3) if m.group(3) in ("AM", "PM") else HALF_OF.get(m.group(3).replace(" ", "\u00a0"))
    if half is None:
        return None
    english = f"{_ENGLISH_MONTHS[MONTH_OF[m.group(1)] - 1]} {m.group(2)} {half}"
    return None if english == ts else english

#: the first byte of every localised month (a character of one byte, or a UTF-8 lead byte as the
#: character of that code: the layouts' first-byte test, ``layouts.FIRST_CHARS``)
FIRST_BYTES = "".join(sorted({chr(name.encode()[0]) for name in MONTH_OF}))
