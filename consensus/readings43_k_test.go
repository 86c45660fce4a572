package consensus

import "testing"

// TestConfigDurationWords: a duration value written in ISO 8601 or as a
// Go or Prometheus duration of more than one part reads as the number and
// the unit a rule says, its parts counted in the smallest unit written;
// years and months are not counted with days, and what is no duration
// ("P1", "P2P", "5m30") stays as written.
func TestConfigDurationWords(t *testing.T) {
	checkVoiced(t, []voicedCase{
		{"audit: {retention: P30D}", "audit: {retention: 30 days}"},
		{"audit.retention=P2W", "audit retention 2 weeks"},
		{`capture_delay = "PT15M"`, "capture delay 15 minutes"},
		{`capture_delay = "PT1H30M"`, "capture delay 90 minutes"},
		{"grace = P1DT12H", "grace 36 hours"},
		{"contract_term = P1Y6M", "contract term 18 months"},
		{"contract_term = P1Y", "contract term 1 year"},
		{"session: {idle_timeout: 1h30m}", "session: {idle timeout 90 minutes}"},
		{"retry_after: 1m30s", "retry after 90 seconds"},
		{"hold: 2d12h", "hold: 60 hours"},
		{"notice = P1M15D", "notice P1M15D"},
		{"priority: P1", "priority: P1"},
		{"code: P2P", "code: P2P"},
		{"x: 5m30", "x: 5m30"},
		{"x: 30s5m", "x: 30s5m"},
	})
}

// TestConfigDurationsCompared: a duration in ISO 8601 or in Go's form of
// two parts agrees with the rule that says the same length in words, in
// whatever unit; another length stays a conflict.
func TestConfigDurationsCompared(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"days in ISO 8601", "Audit log retention", "Audit logs are kept for 30 days.",
			voicePosition("audit: {retention: P30D}"), Agree, ""},
		{"other days in ISO 8601", "Audit log retention", "Audit logs are kept for 30 days.",
			voicePosition("audit: {retention: P90D}"), Disagree, "30 days → 90 days"},
		{"weeks in a properties file", "Audit log retention", "Audit logs are kept for 2 weeks.",
			voicePosition("audit.retention=P2W"), Agree, ""},
		{"other weeks in a properties file", "Audit log retention", "Audit logs are kept for 2 weeks.",
			voicePosition("audit.retention=P3W"), Disagree, "2 weeks → 3 weeks"},
		{"hours and minutes in ISO 8601", "Payment capture", "A card payment is held for 90 minutes before it is captured.",
			voicePosition(`[payments] capture_delay = "PT1H30M"`), Agree, ""},
		{"an hour in ISO 8601 against 90 minutes", "Payment capture", "A card payment is held for 90 minutes before it is captured.",
			voicePosition(`[payments] capture_delay = "PT1H"`), Disagree, "90 minutes → 1 hour"},
		{"hours and minutes in Go's form", "Staff portal sessions", "Staff portal sessions expire after 1.5 hours of inactivity.",
			voicePosition("session: {idle_timeout: 1h30m}"), Agree, ""},
		{"other hours and minutes in Go's form", "Staff portal sessions", "Staff portal sessions expire after 2 hours of inactivity.",
			voicePosition("session: {idle_timeout: 1h30m}"), Disagree, "2 hours → 90 minutes"},
	})
}

// TestScheduleEveryDayAt: a schedule that runs every day at the time of
// day the rule says ("0 22 * * *" against "between 22:00 and 06:00", "at
// 03:00") says the rule; not against a rule said on named days, at
// another time, or on a date.
func TestScheduleEveryDayAt(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"a daily cron at the rule's time", "Wiki backups", "The wiki is backed up at 03:00.",
			voicePosition(`BACKUP_SCHEDULE="0 3 * * *"`), Agree, ""},
		{"a daily cron at the start of the rule's window", "Ward night mode", "Between 23:00 and 06:00 the ward lights are dimmed to 20%.",
			voicePosition("0 23 * * * wardctl dim --level=20 --until=06:00"), Agree, ""},
		{"a daily cron at another time", "Ward night mode", "Between 23:00 and 06:00 the ward lights are dimmed to 20%.",
			voicePosition("0 22 * * * wardctl dim --level=20 --until=06:00"), Disagree, "23:00 → 22:00"},
		{"a daily cron against a weekly rule", "Wiki backups", "The wiki is backed up weekly at 03:00.",
			voicePosition(`BACKUP_SCHEDULE="0 3 * * *"`), Disagree, "weekly → every day"},
		{"a daily cron against a date", "Schema migration", "The one-off schema migration runs on 12 March at 02:00.",
			voicePosition(`MIGRATION_CRON="0 2 * * *"`), Disagree, "every day"},
		{"a daily cron against a rule on Fridays", "Office door", "The office front door locks automatically at 22:00 on Fridays.",
			voicePosition(`door_lock: {schedule: "0 22 * * *"}`), Unsure, ""},
	})
}
