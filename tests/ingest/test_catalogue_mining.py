"""The catalogue miners' source scanners (jobs/ingest/catalogue/mining): what they read from a log call."""

from __future__ import annotations

from jobs.ingest.catalogue.mining.clients import CLIENTS
from jobs.ingest.catalogue.mining.scan import calls, literal

_CS = '''
  log.LogInformation($"New partitions assign requested : {string.Join(",", partitions)}"); // a "comment
  log.LogError(e, "{LogPrefix}Encountered the following error during processing:", logPrefix);
  log.Info(@"a ""b"" \\d" + $"{{x}} {y}");
  StringBuilder sb = new StringBuilder();
  sb.AppendLine($"Partition revocation took {DateTime.Now - start} ms");
  sb.AppendLine($"\\tCurrent suspended active tasks: {string.Join(",", ids)}");
  log.LogInformation(sb.ToString());
'''


def test_csharp_strings_interpolation_verbatim_and_comments():
    got = [(c.line, [literal(a, "cs") for a in c.args]) for c in calls(_CS, r"\blog\.(?:LogInformation|LogError|Info)", "cs")]
    assert got == [
        (2, ['New partitions assign requested : {string.Join(",", partitions)}']),
        (3, [None, "{LogPrefix}Encountered the following error during processing:", None]),
        (4, ['a "b" \\d{{x}} {y}']),
        (8, [None]),
    ]


def test_csharp_miner_reads_templates_interpolations_exceptions_and_string_builders():
    got = [(m.line, m.level, m.text, m.args) for m in CLIENTS["streamiz"].mine("X.cs", _CS)]
    assert got == [
        (2, "INFO", "New partitions assign requested : %v", ('string.Join(",", partitions)',)),
        (3, "ERROR", "%vEncountered the following error during processing:", ("logPrefix",)),
        (4, "INFO", 'a "b" \\d{x} %v', ("y",)),
        (8, "INFO", "Partition revocation took %v ms\n\tCurrent suspended active tasks: %v",
         ("DateTime.Now - start", 'string.Join(",", ids)')),
    ]


_RB = '''
    def on_rebalance_partitions_revoked(event)
        group_prefix = "[#{client_id}] Group #{group_id} rebalance"
        if revoked_partitions.empty?
          info "#{group_prefix}: No partitions revoked"
        end
        message = "[#{listener_id}] Polled #{count} messages"
        debug(message)
        info <<~MSG.tr("\\n", " ").strip!
          [#{job.id}] #{job_type} job
          finished in #{time} ms
        MSG
        warn ""
    end
'''


def test_ruby_listener_miner_reads_heredocs_locals_and_inlined_prefixes():
    got = [(m.line, m.level, m.text) for m in CLIENTS["karafka"].mine("logger_listener.rb", _RB)]
    assert got == [
        (5, "INFO", "[%v] Group %v rebalance: No partitions revoked"),
        (8, "DEBUG", "[%v] Polled %v messages"),
        (9, "INFO", "[%v] %v job finished in %v ms"),
    ]


_JAVA_JBOSS = '''
@MessageLogger(projectCode = "SRMSG", length = 5)
public interface KafkaLogging extends BasicLogger {
    @LogMessage(level = Logger.Level.INFO)
    @Message(id = 18224, value = "Executing consumer revoked re-balance listener for group '%s'")
    void executingConsumerRevokedRebalanceListener(String consumerGroup);

    @LogMessage(level = Logger.Level.DEBUG)
    @Message(id = 18239, value = "Received acknowledgement for record %d on '%s' " +
            "(consumer group: '%s').")
    void messageAckedForRevokedTopicPartition(long offset, String topic, String group);
}
'''


def test_jboss_logging_miner_reads_message_interfaces_with_their_codes():
    got = [(m.line, m.level, m.text, m.args) for m in CLIENTS["smallrye-kafka"].mine("KafkaLogging.java", _JAVA_JBOSS)]
    assert got == [
        (4, "INFO", "SRMSG18224: Executing consumer revoked re-balance listener for group '%v'", ("consumerGroup",)),
        (8, "DEBUG", "SRMSG18239: Received acknowledgement for record %v on '%v' (consumer group: '%v').", ("offset", "topic", "group")),
    ]


def test_node_util_format_miner_appends_arguments_without_placeholders_and_skips_comments():
    src = """
  logger.debug('%s owns topics: ', self.client.clientId, syncGroupResponse.partitions);
  // logger.debug('%s heart ->', this.client.clientId);
  logger.debug(`${this.client.clientId} is leader`);
"""
    got = [(m.line, m.level, m.text) for m in CLIENTS["kafka-node"].mine("consumerGroup.js", src)]
    assert got == [(2, "DEBUG", "%v owns topics:  %v"), (4, "DEBUG", "%v is leader")]


def test_kafkaflow_miner_adds_the_data_object():
    src = """
        _logHandler.Warning(
            "Partitions revoked",
            this.GetConsumerLogInfo(partitions));
        _logHandler.Info($"Kafka consumer '{this.ConsumerName}' was paused", topicPartitions);
"""
    got = [(m.line, m.level, m.text) for m in CLIENTS["kafkaflow"].mine("ConsumerManager.cs", src)]
    assert got == [(2, "WARN", "Partitions revoked | Data: %v"), (5, "INFO", "Kafka consumer '%v' was paused | Data: %v")]


def test_rust_log_macro_miner_skips_the_target_and_reads_inline_names():
    src = """
        error!("Error rebalancing: {}", error_code);
        warn!("Ignored event '{evname}' on consumer poll");
        info!(target: "librdkafka", "librdkafka: {} {}", fac, log_message)
        trace!("loop: 0x{:x} {{braces}}", ptr);
"""
    got = [(m.line, m.level, m.text, m.args) for m in CLIENTS["rust-rdkafka"].mine("mod.rs", src)]
    assert got == [
        (2, "ERROR", "Error rebalancing: %v", ("error_code",)),
        (3, "WARN", "Ignored event '%v' on consumer poll", ("evname",)),
        (4, "INFO", "librdkafka: %v %v", ("fac", "log_message")),
        (5, "TRACE", "loop: 0x%v {braces}", ("ptr",)),
    ]


def test_mining_more_tags_keeps_the_files_ids_mapping_and_hand_added_statements():
    from jobs.ingest.catalogue.mining.__main__ import update

    old = [
        {"id": "cgrp.join", "format": 'Group "%s": join with %d subscribed topic(s)', "template": "t", "level": "7",
         "file": "src/rdkafka_cgrp.c", "line": 10, "first": "v1.9.0", "facility": "JOIN", "kind": "join_sent", "note": "kept"},
        {"id": "partition.x", "format": "x %s", "template": "x {_a}", "level": "7", "file": "src/rdkafka_partition.c",
         "line": 5, "facility": "OFFSET", "kind": "unrelated"},
    ]
    mined = [
        {"id": "cgrp.join", "format": 'Group "%s": join with %d (%d) subscribed topic(s)', "template": 'Group "{group_id}": j',
         "level": "7", "file": "src/rdkafka_cgrp.c", "line": 7, "first": "", "last": "v1.5.3", "facility": "JOIN", "kind": "unmapped"},
        {"id": "cgrp.join", "format": 'Group "%s": join with %d subscribed topic(s)', "template": "mined", "level": "7",
         "file": "src/rdkafka_cgrp.c", "line": 12, "first": "v1.6.2", "last": "", "facility": "JOIN", "kind": "unmapped"},
    ]
    readings = [(r'^Group \"%s\": join with %d (?:\(%d\) )?subscribed topic', "join_sent", {})]
    got = update(mined, old, readings)
    assert [(s["id"], s["kind"], s.get("first"), s.get("last"), s["line"], s.get("note")) for s in got] == [
        ("cgrp.join", "join_sent", "v1.6.2", None, 12, "kept"),  # found again: provenance updated, mapping kept
        ("partition.x", "unrelated", None, None, 5, None),  # a file the miner does not read: as written
        ("cgrp.join-2", "join_sent", None, "v1.5.3", 7, None),  # new: a free id, read by the readings
    ]
    assert got[0]["template"] == "t"
