"""The timestamp patterns logs print, as data: each entry is a date-time pattern a logging framework
documents (a default, a named format) or a pattern its users commonly configure, with where it comes
from. :mod:`jobs.ingest.date_grammar` compiles them into the locator's forms and the converter.

Patterns use the letters of Java's ``SimpleDateFormat`` / ``DateTimeFormatter`` (the frameworks'
own notation; other notations are written in it: Go's ``2006/01/02 15:04:05.000000`` is
``yyyy/MM/dd HH:mm:ss.SSSSSS``, Python's ``%d-%b-%y %H:%M:%S`` is ``dd-MMM-yy HH:mm:ss``):

=============  ========================================================================
letters        meaning
=============  ========================================================================
``yyyy`` ``yy``  year; a two-digit year is 20yy
``MM`` ``M``     month number (``M``: one or two digits); ``MMM`` ``Jan``, ``MMMM`` ``January``
``dd`` ``d``     day of the month; ``pp`` pads the next field with a space (``MMM ppd``: ``May  1``)
``HH`` ``H``     hour 0-23; ``hh`` ``h`` hour 1-12 with ``a`` (``AM``/``PM``)
``mm`` ``ss``    minute, second; ``S…`` or ``n…`` a fraction (read with 1-9 digits)
``EEE`` ``EEEE`` day name (ignored: the date says the day)
``X`` ``XX`` ``XXX`` ``Z`` ``xx`` ``xxx``  zone offset (``Z``, ``+02``, ``+0200``, ``+02:00``)
``z``            zone name (``UTC``, ``CEST``, ``PST`` …: :data:`ZONE_NAMES`)
``o``            an English ordinal suffix (moment.js ``Do``: ``25th``)
``@``            a glog/klog severity letter (``I``, ``W``, ``E``, ``F``)
``'…'``          literal text; any other character is itself
=============  ========================================================================

Every pattern is read a little wider than it prints, because users vary the detail and not the
shape: an optional fraction of 1-9 digits after ``.`` or ``,`` (where the pattern prints one, and
where it prints none; a fraction glued to the seconds, ``COMPACT``, stays as printed), the
date-time separator ``' '``, ``T``, ``.`` or ``_`` for any of them, and, when the pattern prints no
zone, an optional zone after the time (``Z``, ``+02:00``, ``+0200``, `` +0200``, `` UTC``). Patterns
without a date (``ABSOLUTE``, ``HH:mm:ss``) are listed for completeness; a time of day alone is
dated by :mod:`jobs.ingest.day_dates`. Patterns without a year (syslog, glog) take the year of the
file's dated lines, else ``ingest.default_year``.

To add a pattern: append a :class:`DatePattern` with its source; ``tests/ingest/test_date_grammar.py``
renders every entry and checks the instant read back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DatePattern:
    """One documented timestamp pattern: ``pattern`` in Java's letters, ``source`` the framework,
    ``option`` the setting or name that prints it, ``ref`` where it is documented."""

    pattern: str
    source: str
    option: str
    ref: str


_L4J2 = "log4j2 PatternLayout %d{NAME} (FixedDateFormat.FixedFormat)"
_L4J1 = "log4j 1.x PatternLayout %d{NAME} (ISO8601DateFormat, AbsoluteTimeDateFormat, DateTimeDateFormat)"

PATTERNS: tuple[DatePattern, ...] = (
    # ---- log4j 2 predefined names, log4j 1.x named formats, logback's %d
    DatePattern("yyyy-MM-dd HH:mm:ss,SSS", "log4j2", "%d{DEFAULT}", _L4J2),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSS", "log4j2", "%d{DEFAULT_PERIOD}", _L4J2),
    DatePattern("yyyy-MM-dd HH:mm:ss,nnnnnn", "log4j2", "%d{DEFAULT_MICROS}", _L4J2),
    DatePattern("yyyy-MM-dd HH:mm:ss,nnnnnnnnn", "log4j2", "%d{DEFAULT_NANOS}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss,SSS", "log4j2", "%d{ISO8601}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSS", "log4j2", "%d{ISO8601_PERIOD}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.nnnnnn", "log4j2", "%d{ISO8601_PERIOD_MICROS}", _L4J2),
    DatePattern("yyyyMMdd'T'HHmmss,SSS", "log4j2", "%d{ISO8601_BASIC}", _L4J2),
    DatePattern("yyyyMMdd'T'HHmmss.SSS", "log4j2", "%d{ISO8601_BASIC_PERIOD}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss,SSSX", "log4j2", "%d{ISO8601_OFFSET_DATE_TIME_HH}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss,SSSXX", "log4j2", "%d{ISO8601_OFFSET_DATE_TIME_HHMM}", _L4J2),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss,SSSXXX", "log4j2", "%d{ISO8601_OFFSET_DATE_TIME_HHCMM}", _L4J2),
    DatePattern("yyyyMMddHHmmssSSS", "log4j2", "%d{COMPACT}", _L4J2),
    DatePattern("dd MMM yyyy HH:mm:ss,SSS", "log4j2", "%d{DATE}", _L4J2),
    DatePattern("dd MMM yyyy HH:mm:ss.SSS", "log4j2", "%d{DATE_PERIOD}", _L4J2),
    DatePattern("HH:mm:ss,SSS", "log4j2", "%d{ABSOLUTE} (also log4j 1.x)", _L4J2),
    DatePattern("HH:mm:ss.SSS", "log4j2", "%d{ABSOLUTE_PERIOD}", _L4J2),
    DatePattern("yyyy-MM-dd HH:mm:ss,SSS", "log4j 1.x", "%d, %d{ISO8601}", _L4J1),
    DatePattern("dd MMM yyyy HH:mm:ss,SSS", "log4j 1.x", "%d{DATE}", _L4J1),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSS", "logback", "%d, %date (ISO8601 with '.')",
                "logback manual, Layouts: %d{pattern}; CoreConstants.ISO8601_PATTERN"),
    DatePattern("HH:mm:ss.SSS", "logback", "%d{HH:mm:ss.SSS} (logback.xml examples, Micronaut)",
                "logback manual, Layouts; Micronaut's generated logback.xml"),
    DatePattern("yy-MM-dd.HH:mm:ss.SSS", "logback", "%d{yy-MM-dd.HH:mm:ss.SSS} (custom, seen in Spring apps)",
                "SimpleDateFormat pattern in logback.xml"),
    # ---- frameworks' default layouts
    DatePattern("yy/MM/dd HH:mm:ss", "Spark / Hadoop / Hive / Flink console", "%d{yy/MM/dd HH:mm:ss}",
                "spark conf/log4j2.properties.template; hadoop conf/log4j.properties (console appender)"),
    DatePattern("yy/MM/dd HH:mm:ss.SSS", "Spark / Hadoop (with millis)", "%d{yy/MM/dd HH:mm:ss.SSS}",
                "same templates with millis added"),
    DatePattern("yyyy-MM-dd HH:mm:ss,SSS", "Kafka", "[%d] %p %m (%c)%n",
                "kafka config/log4j.properties (ISO8601 default of %d)"),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSS", "Spring Boot 1/2", "LOG_DATEFORMAT_PATTERN default",
                "spring-boot defaults.xml: ${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd HH:mm:ss.SSS}"),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "Spring Boot 3", "LOG_DATEFORMAT_PATTERN default",
                "spring-boot 3 defaults.xml: yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
    DatePattern("yyyy-MM-dd HH:mm:ss,SSS", "Quarkus", "quarkus.log.console.format %d{yyyy-MM-dd HH:mm:ss,SSS}",
                "Quarkus logging guide"),
    DatePattern("MM/dd/yyyy HH:mm:ss.SSS", "Akka / Play (classic StdOutLogger)", "[LEVEL] [MM/dd/yyyy HH:mm:ss.SSS]",
                "akka.event.Logging.StdOutLogger timestamp format"),
    DatePattern("yyyy.MM.dd HH:mm:ss.SSSSSS", "ClickHouse server log", "text_log / server log",
                "ClickHouse server logs: 2022.11.09 17:49:34.282778 [ tid ] {} <Level>"),
    DatePattern("EEE MMM dd HH:mm:ss z yyyy", "Java", "Date.toString()", "java.util.Date#toString javadoc"),
    DatePattern("MMM dd, yyyy h:mm:ss a", "java.util.logging", "SimpleFormatter default",
                "java.util.logging.SimpleFormatter format %1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp"),
    DatePattern("dd-MMM-yyyy HH:mm:ss.SSS", "Tomcat", "OneLineFormatter timeFormat default",
                "org.apache.juli.OneLineFormatter: dd-MMM-yyyy HH:mm:ss.SSS"),
    DatePattern("dd/MMM/yyyy:HH:mm:ss Z", "nginx / Apache httpd access log", "$time_local / %t",
                "nginx log_format combined; Apache mod_log_config %t"),
    DatePattern("EEE MMM dd HH:mm:ss.SSSSSS yyyy", "Apache httpd error log", "ErrorLogFormat %t",
                "Apache core ErrorLogFormat: [Wed Oct 11 14:32:52.123456 2000]"),
    DatePattern("EEE MMM ppd HH:mm:ss yyyy", "C asctime/ctime", "ctime(3)", "ctime(3): Wed Jun 30 21:49:08 1993"),
    DatePattern("EEE, dd MMM yyyy HH:mm:ss z", "RFC 1123 / 2822 (Go time.RFC1123)", "Date headers",
                "RFC 1123 section 5.2.14; Go time.RFC1123"),
    DatePattern("d-MMM-yyyy::HH:mm:ss.SSSSSS", "Erlang/OTP error_logger", "report header",
                "=INFO REPORT==== 1-May-2024::10:00:00.123456 ==="),
    # ---- Python logging
    DatePattern("yyyy-MM-dd HH:mm:ss,SSS", "Python logging", "%(asctime)s default",
                "logging.Formatter.formatTime: default_time_format + ',%03d' msecs"),
    DatePattern("MM/dd/yyyy hh:mm:ss a", "Python logging", "datefmt='%m/%d/%Y %I:%M:%S %p'",
                "Python logging HOWTO, 'Displaying the date/time in messages'"),
    DatePattern("dd-MMM-yy HH:mm:ss", "Python logging", "datefmt='%d-%b-%y %H:%M:%S'",
                "Python logging cookbook datefmt example"),
    DatePattern("MM/dd/yyyy, h:mm:ss a", "NestJS ConsoleLogger", "toLocaleString('en-US')",
                "@nestjs/common ConsoleLogger timestamp"),
    # ---- Go, glog/klog, zap, zerolog, logrus
    DatePattern("yyyy/MM/dd HH:mm:ss", "Go log", "log.LstdFlags", "Go standard library log: 2009/01/23 01:23:23"),
    DatePattern("yyyy/MM/dd HH:mm:ss.SSSSSS", "Go log", "log.LstdFlags|log.Lmicroseconds", "Go log package docs"),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS Z z", "Go", "time.Time.String()",
                "Go time.Time.String: 2006-01-02 15:04:05.999999999 -0700 MST"),
    DatePattern("@MMdd HH:mm:ss.SSSSSS", "glog / klog", "log line header", "glog: Lmmdd hh:mm:ss.uuuuuu threadid file:line]"),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ", "zap", "ISO8601TimeEncoder (development config)",
                "go.uber.org/zap zapcore.ISO8601TimeEncoder: 2006-01-02T15:04:05.000Z0700"),
    DatePattern("yyyy-MM-dd'T'HH:mm:ssXXX", "zerolog / logrus / slog", "RFC 3339 default time format",
                "zerolog TimeFieldFormat = time.RFC3339; logrus TextFormatter; slog TextHandler (RFC3339 millis)"),
    DatePattern("MMM ppd HH:mm:ss.SSS", "Go", "time.StampMilli", "Go time.StampMilli: Jan _2 15:04:05.000"),
    # ---- .NET / Serilog / NLog, Ruby, Elixir
    DatePattern("yyyy-MM-dd HH:mm:ss.SSS XXX", "Serilog file sink", "{Timestamp:yyyy-MM-dd HH:mm:ss.fff zzz}",
                "Serilog.Sinks.File default outputTemplate"),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSSS", "NLog", "${longdate}", "NLog longdate layout renderer: yyyy-MM-dd HH:mm:ss.ffff"),
    DatePattern("M/d/yyyy h:mm:ss a", ".NET", "DateTime.ToString() in en-US ('G')", ".NET standard format 'G', en-US culture"),
    DatePattern("dd.MM.yyyy HH:mm:ss", ".NET / European locales", "DateTime.ToString() in de-DE ('G')",
                ".NET standard format 'G', de-DE culture"),
    DatePattern("dd-MM-yyyy HH:mm:ss", "European / Indian locales", "custom dd-MM-yyyy", "SimpleDateFormat pattern"),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS", "Ruby Logger", "Logger::Formatter '%Y-%m-%dT%H:%M:%S.%6N'",
                "ruby logger/formatter.rb DatetimeFormat"),
    DatePattern("yyyy-MM-dd HH:mm:ss.SSS", "Elixir Logger", "format '$date $time $metadata[$level] $message'",
                "Elixir Logger.Formatter $date $time"),
    # ---- syslog, viewers
    DatePattern("MMM ppd HH:mm:ss", "syslog RFC 3164", "TIMESTAMP", "RFC 3164 section 4.1.2: Mmm dd hh:mm:ss"),
    DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", "syslog RFC 5424", "TIMESTAMP", "RFC 5424 section 6.2.3"),
    DatePattern("MMM d, yyyy @ HH:mm:ss.SSS", "Kibana 7+", "dateFormat default", "Kibana advanced settings: MMM D, YYYY @ HH:mm:ss.SSS"),
    DatePattern("MMMM do yyyy, HH:mm:ss.SSS", "Kibana 4-6", "dateFormat default", "Kibana advanced settings: MMMM Do YYYY, HH:mm:ss.SSS"),
    # ---- US and European dates, 12-hour clocks
    DatePattern("MM/dd/yyyy HH:mm:ss", "US locales", "custom MM/dd/yyyy", "SimpleDateFormat pattern"),
    DatePattern("MM/dd/yy HH:mm:ss", "US locales", "custom MM/dd/yy", "SimpleDateFormat pattern"),
    DatePattern("dd/MM/yy HH:mm:ss.SSS", "log4j2", "%d{US_MONTH_DAY_YEAR2_TIME}", _L4J2),
    DatePattern("dd/MM/yyyy HH:mm:ss.SSS", "log4j2", "%d{US_MONTH_DAY_YEAR4_TIME}", _L4J2),
    DatePattern("yyyy-MM-dd hh:mm:ss a", "12-hour clocks", "custom yyyy-MM-dd hh:mm:ss a", "SimpleDateFormat pattern"),
    DatePattern("yyyy-MM-dd HH:mm:ss:SSS", "custom", "HH:mm:ss:SSS (colon before the millis)", "SimpleDateFormat pattern"),
    DatePattern("yyyy-MM-dd HH:mm:ss z", "PostgreSQL / MySQL", "log_line_prefix %t (zone name)", "PostgreSQL log_line_prefix %t"),
)


#: zone names a timestamp may end with, and their offset in minutes; ``None``: a name that means
#: several zones (``CST``: US Central or China; ``IST``: India, Ireland or Israel; ``BST``: British
#: Summer or Bangladesh; ``AST``: Atlantic or Arabia): the time is read in ``ingest.default_timezone``
ZONE_NAMES: dict[str, int | None] = {
    "UTC": 0, "GMT": 0, "UT": 0, "Z": 0, "WET": 0, "WEST": 60, "CET": 60, "CEST": 120, "MET": 60,
    "MEST": 120, "EET": 120, "EEST": 180, "MSK": 180, "JST": 540, "KST": 540, "HKT": 480, "SGT": 480,
    "AWST": 480, "ACST": 570, "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "EST": -300, "EDT": -240,
    "CDT": -300, "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480,
    "HST": -600, "BRT": -180, "ART": -180, "CST": None, "IST": None, "BST": None, "AST": None,
}  # fmt: skip
