package escalation

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/jsonscan"
)

// Limits of one telemetry record.
const (
	// MaxLineBytes bounds one line of telemetry; a longer line is reported
	// and skipped.
	MaxLineBytes = 1 << 20
	// MaxTaskIDLen bounds a task id.
	MaxTaskIDLen = 200
	// MaxItems bounds each of reasons, claims and evidence_paths (reasons
	// beyond it are counted in the last one kept).
	MaxItems = 100
	// MaxItemLen bounds one reason, claim or evidence path (bytes; a
	// longer reason is cut to it).
	MaxItemLen = 4000
)

// Priority is a task's priority as the verifier's harness labels it.
type Priority string

// The priorities of the seed's cascade; PriorityNone when the record has
// none (treated as M).
const (
	PriorityNone    Priority = ""
	PriorityL       Priority = "L"
	PriorityM       Priority = "M"
	PriorityH       Priority = "H"
	PriorityBlocker Priority = "BLOCKER"
)

// The mini-verifier's verdicts. Only DRIFT is escalated; other values,
// known or not, are kept as written (upper-cased).
const (
	VerdictConfirmed     = "CONFIRMED"
	VerdictDrift         = "DRIFT"
	VerdictHallucination = "HALLUCINATION"
	VerdictSkip          = "SKIP"
)

// Record is one mini-verifier telemetry record (seed 000): the fields of
// the seed's log, and the optional priority, claims and evidence paths
// parley needs to escalate it. Fields parley does not know are ignored.
type Record struct {
	Timestamp string `json:"timestamp"`
	TaskID    string `json:"task_id"`
	// Verdict is upper-cased: CONFIRMED, DRIFT, HALLUCINATION, SKIP, or
	// whatever else the verifier wrote.
	Verdict string `json:"verdict"`
	// Confidence is the verifier's confidence in its verdict, in [0, 1];
	// nil when absent.
	Confidence    *float64 `json:"confidence,omitempty"`
	LatencyMs     *float64 `json:"latency_ms,omitempty"`
	ModelID       string   `json:"model_id,omitempty"`
	CostUSD       *float64 `json:"cost_usd,omitempty"`
	Reasons       []string `json:"reasons,omitempty"`
	FallbackUsed  bool     `json:"fallback_used,omitempty"`
	Priority      Priority `json:"priority,omitempty"`
	Claims        []string `json:"claims,omitempty"`
	EvidencePaths []string `json:"evidence_paths,omitempty"`

	// Line is the record's line number in the file it was read from (0
	// when it was not read from a file).
	Line int `json:"-"`
}

// Key identifies a record for idempotency: its task id and the instant
// of its timestamp.
func (r *Record) Key() string { return Key(r.TaskID, r.Timestamp) }

// Key is the idempotency key of a task id and a timestamp: the timestamp
// counts as the instant it names, so that one record written again with
// its time in another offset or precision (13:21:30+02:00, 11:21:30Z,
// 11:21:30.000Z: a log normalised again in place) is the record decided
// already, not a new one. A timestamp that does not parse counts as
// written.
func Key(taskID, timestamp string) string {
	if t, err := parseTime(timestamp); err == nil {
		timestamp = t.UTC().Format(time.RFC3339Nano)
	}
	return taskID + "\x00" + timestamp
}

// Time returns the record's timestamp as a time.
func (r *Record) Time() time.Time {
	t, _ := parseTime(r.Timestamp)
	return t
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err == nil {
		return t, nil
	}
	for _, layout := range otherTimeLayouts {
		if t, e := time.Parse(layout, s); e == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// otherTimeLayouts are the forms of a timestamp read besides RFC 3339
// (each with or without a fraction of a second): a space between the date
// and the time (Python's str(datetime), SQL), and no offset at all
// (Python's isoformat() of a naive datetime), read as UTC.
var otherTimeLayouts = []string{
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
}

// epochTimestamp reads a timestamp written as a number: seconds since the
// Unix epoch (Python's time.time()), or milliseconds (JavaScript's
// Date.now()) when it is too large to be seconds of a year before 5000.
// It is written again in RFC 3339, in UTC.
func epochTimestamp(b json.RawMessage) (string, bool) {
	var n float64
	if json.Unmarshal(b, &n) != nil || n <= 0 || math.IsInf(n, 0) {
		return "", false
	}
	if n >= 1e11 {
		n /= 1000
	}
	sec, frac := math.Modf(n)
	t := time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
	return t.Format(time.RFC3339Nano), true
}

// ParseRecord decodes one telemetry line strictly where parley relies on a
// field and tolerantly elsewhere: unknown fields are ignored, and so is a
// value of latency_ms, cost_usd or fallback_used that does not read (a
// number or boolean may be written as a string); task_id (a
// string, or an integer written as a number), timestamp (RFC 3339; with a
// space for the T; without an offset, read as UTC; or a number of seconds
// or milliseconds since the Unix epoch) and verdict are required;
// confidence, when present, is a number in [0, 1] (or a string such as
// "0.8" or "80%"); priority is L, M, H or BLOCKER, or low, medium or high,
// in any case (empty or null: none); reasons, claims and evidence_paths are
// lists of strings (a single string is a list of one; blank items are
// dropped) of at most MaxItems items of MaxItemLen bytes: reasons over
// these bounds are cut, claims and evidence paths refused. A UTF-8 byte order mark before the object (a file saved by a
// Windows editor) is ignored. Errors wrap ErrMalformed and name the field.
func ParseRecord(line []byte) (*Record, error) {
	line = bytes.TrimPrefix(line, []byte("\ufeff"))
	if len(line) > MaxLineBytes {
		return nil, fmt.Errorf("%w: the line is longer than %d bytes", ErrMalformed, MaxLineBytes)
	}
	if !utf8.Valid(line) {
		return nil, fmt.Errorf("%w: not UTF-8 text", ErrMalformed)
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	err := dec.Decode(&raw)
	if err != nil && bytes.ContainsAny(line, "NI") {
		// Python's json.dumps writes NaN and Infinity for a float it has
		// no number for (a confidence it could not compute): read as null,
		// as any other value parley cannot use.
		if nulled, ok := nonFinitesAsNull(line); ok {
			raw = nil
			dec = json.NewDecoder(bytes.NewReader(nulled))
			err = dec.Decode(&raw)
		}
	}
	if err != nil || raw == nil {
		if err == nil {
			err = fmt.Errorf("not an object")
		}
		return nil, fmt.Errorf("%w: not a JSON object: %s", ErrMalformed, clip.Line(err.Error(), 121))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", ErrMalformed)
	}
	r := &Record{}
	if r.TaskID, err = taskID(raw["task_id"]); err != nil {
		return nil, err
	}
	if ts, ok := epochTimestamp(raw["timestamp"]); ok {
		r.Timestamp = ts
	} else if r.Timestamp, err = str(raw, "timestamp", true); err != nil {
		return nil, err
	}
	if t, err := parseTime(r.Timestamp); err != nil {
		return nil, fmt.Errorf("%w: timestamp %q is not a date and time (e.g. 2026-05-14T13:18:42Z)", ErrMalformed, clip.Line(r.Timestamp, 61))
	} else if y := t.UTC().Year(); y < 1 || y > 9999 {
		// A debate id starts with the UTC date: year 0000 at +01:00 is
		// the year -1 in UTC (found by FuzzParseRecord).
		return nil, fmt.Errorf("%w: timestamp %q is not a date between the years 1 and 9999 in UTC", ErrMalformed, clip.Line(r.Timestamp, 61))
	}
	if r.Verdict, err = str(raw, "verdict", true); err != nil {
		return nil, err
	}
	r.Verdict = strings.ToUpper(strings.TrimSpace(r.Verdict))
	if r.Confidence, err = confidence(raw["confidence"]); err != nil {
		return nil, err
	}
	// The verifier's bookkeeping, which no step of the cascade reads:
	// read when it can be, else left out, never a reason to skip the
	// record.
	r.LatencyMs, r.CostUSD = number(raw["latency_ms"]), number(raw["cost_usd"])
	r.FallbackUsed = boolean(raw["fallback_used"])
	if r.ModelID, err = str(raw, "model_id", false); err != nil {
		return nil, err
	}
	p, err := str(raw, "priority", false)
	if err != nil {
		return nil, err
	}
	if r.Priority, err = ParsePriority(p); err != nil {
		return nil, err
	}
	if r.Reasons, err = list(raw, "reasons", cutProse); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{{"claims", &r.Claims}, {"evidence_paths", &r.EvidencePaths}} {
		if *f.dst, err = list(raw, f.key, refuseLong); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// nonFinitesAsNull is line with each NaN, Infinity and -Infinity that
// stands as a value (outside strings) written null; false when it has
// none.
func nonFinitesAsNull(line []byte) ([]byte, bool) {
	out := make([]byte, 0, len(line))
	found := false
	var q jsonscan.Quoted
	for i := 0; i < len(line); i++ {
		c := line[i]
		if q.Step(c) {
			out = append(out, c)
			continue
		}
		if n := nonFiniteAt(line[i:]); n > 0 {
			out, found = append(out, "null"...), true
			i += n - 1
			continue
		}
		out = append(out, c)
	}
	return out, found
}

// nonFiniteAt is the length of the NaN, Infinity or -Infinity that b
// starts with; 0 if none.
func nonFiniteAt(b []byte) int {
	for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
		if bytes.HasPrefix(b, []byte(tok)) {
			return len(tok)
		}
	}
	return 0
}

// RecordTexts are the texts of the records a telemetry line holds: the
// line itself, or, when it holds NUL bytes, its pieces between them. A NUL
// byte is never part of a JSON record (one inside a string is written
// \u0000); a run of them is what a crash leaves in a file whose size grew
// before its data was written, and the verifier's next record then
// follows them on the same line. Blank pieces (a line of NULs, spaces or
// nothing) are no records.
func RecordTexts(line []byte) [][]byte {
	var out [][]byte
	for piece := range bytes.SplitSeq(line, []byte{0}) {
		if len(trimSpace(piece)) > 0 {
			out = append(out, piece)
		}
	}
	return out
}

// wholeRecord reports whether line ends in a whole record: a last line
// without its newline that does is not one its writer is still writing.
func wholeRecord(line []byte) bool {
	texts := RecordTexts(line)
	if len(texts) == 0 {
		return false
	}
	_, err := ParseRecord(texts[len(texts)-1])
	return err == nil
}

// ParsePriority reads a priority in any case, its letter or its word
// ("low", "medium", "high"); "" is PriorityNone.
func ParsePriority(s string) (Priority, error) {
	switch p := Priority(strings.ToUpper(strings.TrimSpace(s))); p {
	case PriorityNone, PriorityL, PriorityM, PriorityH, PriorityBlocker:
		return p, nil
	case "LOW":
		return PriorityL, nil
	case "MEDIUM":
		return PriorityM, nil
	case "HIGH":
		return PriorityH, nil
	}
	return "", fmt.Errorf("%w: priority %q (use L, M, H or BLOCKER)", ErrMalformed, clip.Line(s, 41))
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

func taskID(b json.RawMessage) (string, error) {
	if len(b) == 0 || isNull(b) {
		return "", fmt.Errorf("%w: task_id is missing", ErrMalformed)
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n json.Number
		if json.Unmarshal(b, &n) != nil {
			return "", fmt.Errorf("%w: task_id must be a string or an integer", ErrMalformed)
		}
		if _, err := n.Int64(); err != nil {
			return "", fmt.Errorf("%w: task_id must be a string or an integer", ErrMalformed)
		}
		s = n.String()
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Errorf("%w: task_id is empty", ErrMalformed)
	case len(s) > MaxTaskIDLen:
		return "", fmt.Errorf("%w: task_id is longer than %d bytes", ErrMalformed, MaxTaskIDLen)
	case strings.ContainsFunc(s, isControl):
		return "", fmt.Errorf("%w: task_id holds control characters", ErrMalformed)
	}
	return s, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

func str(raw map[string]json.RawMessage, key string, required bool) (string, error) {
	b, ok := raw[key]
	if !ok || isNull(b) {
		if required {
			return "", fmt.Errorf("%w: %s is missing", ErrMalformed, key)
		}
		return "", nil
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", fmt.Errorf("%w: %s must be a string", ErrMalformed, key)
	}
	if required && strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%w: %s is empty", ErrMalformed, key)
	}
	if len(s) > MaxItemLen {
		return "", fmt.Errorf("%w: %s is longer than %d bytes", ErrMalformed, key, MaxItemLen)
	}
	return s, nil
}

// number reads a field parley only keeps: a number, or a string holding
// one ("2341"); nil for anything else (absent, null, "n/a", an object).
func number(b json.RawMessage) *float64 {
	if len(b) == 0 || isNull(b) {
		return nil
	}
	var f float64
	if json.Unmarshal(b, &f) != nil {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return nil
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// boolean reads a flag parley only keeps: true or false, as a JSON
// boolean, a string ("true", "FALSE") or the number 1 or 0; false for
// anything else.
func boolean(b json.RawMessage) bool {
	var v bool
	if json.Unmarshal(b, &v) == nil {
		return v
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, _ = strconv.ParseBool(strings.TrimSpace(s))
		return v
	}
	var n json.Number
	return json.Unmarshal(b, &n) == nil && n.String() == "1"
}

// confidence reads a number in [0, 1], or a string "0.8" / "80%".
func confidence(b json.RawMessage) (*float64, error) {
	if len(b) == 0 || isNull(b) {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil, fmt.Errorf("%w: confidence must be a number from 0 to 1", ErrMalformed)
		}
		s = strings.TrimSpace(s)
		pct := strings.HasSuffix(s, "%")
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64); err != nil {
			return nil, fmt.Errorf("%w: confidence %q is not a number from 0 to 1 or a percentage", ErrMalformed, clip.Line(s, 41))
		}
		if pct {
			f /= 100
		}
	}
	if !(f >= 0 && f <= 1) {
		return nil, fmt.Errorf("%w: confidence %v is outside 0…1", ErrMalformed, f)
	}
	return &f, nil
}

// longItems is what a list does with items over the bounds (longer than
// MaxItemLen, more than MaxItems).
type longItems int

const (
	// refuseLong: the record is malformed. For what is defended or
	// checked (claims, evidence paths), which a cut would change.
	refuseLong longItems = iota
	// cutProse: each item is cut to MaxItemLen bytes and the list to
	// MaxItems, its last item saying how many more there were. For the
	// verifier's prose (reasons), which a model may let run on.
	cutProse
)

func list(raw map[string]json.RawMessage, key string, long longItems) ([]string, error) {
	b, ok := raw[key]
	if !ok || isNull(b) {
		return nil, nil
	}
	var items []string
	if err := json.Unmarshal(b, &items); err != nil {
		var one string
		if json.Unmarshal(b, &one) != nil {
			return nil, fmt.Errorf("%w: %s must be a list of strings", ErrMalformed, key)
		}
		items = []string{one}
	}
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(it)
		switch {
		case it == "":
			continue
		case len(it) > MaxItemLen && long == cutProse:
			it = clip.Bytes(it, MaxItemLen-len("…"))
		case len(it) > MaxItemLen:
			return nil, fmt.Errorf("%w: an item of %s is longer than %d bytes", ErrMalformed, key, MaxItemLen)
		}
		out = append(out, it)
	}
	if len(out) > MaxItems {
		if long != cutProse {
			return nil, fmt.Errorf("%w: %s has more than %d items", ErrMalformed, key, MaxItems)
		}
		out = append(out[:MaxItems-1], fmt.Sprintf("(%d more %s not shown)", len(out)-MaxItems+1, key))
	}
	return out, nil
}
