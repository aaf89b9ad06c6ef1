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
"""

from __future__ import annotations

import re

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
    """Every printed name -> its English level (the English names included)."""
    out = {name: name for name in ENGLISH}
    for table in (JDK_CURRENT, JDK_LEGACY):
        for names in table.values():
            for english, name in zip(ENGLISH, names):
                out.setdefault(name, english)
    return out


#: printed name -> English level
LEVEL_OF: dict[str, str] = localized_names()
#: the alternation of every printed name (longest first, so that ``FINEST`` is not read as ``FINE``)
LEVEL_NAMES = "|".join(re.escape(n) for n in sorted(LEVEL_OF, key=lambda n: (-len(n), n)))
