package debate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

func TestPositionsEqualUpToCaseSpacingPunctuation(t *testing.T) {
	t.Parallel()
	base := "Use UUIDv7 keys for idempotency"
	same := []string{
		"use uuidv7 keys for idempotency",
		"  Use   UUIDv7\tkeys\nfor idempotency.  ",
		"USE UUIDV7 KEYS FOR IDEMPOTENCY!!!",
		"Use UUIDv7 keys for idempotency…",
	}
	for _, s := range same {
		if PositionHash(s) != PositionHash(base) {
			t.Errorf("%q should equal %q", s, base)
		}
	}
	different := []string{"Use UUIDv4 keys for idempotency", "Use UUIDv7 keys, for idempotency", "Don't use UUIDv7 keys for idempotency"}
	for _, s := range different {
		if PositionHash(s) == PositionHash(base) {
			t.Errorf("%q should differ from %q", s, base)
		}
	}
	// NFC: e + combining acute equals precomposed é.
	if PositionHash("caf\u0065\u0301") != PositionHash("caf\u00e9") {
		t.Error("NFC forms differ")
	}
	if PositionHash("  ... ") != "" || PositionHash("") != "" {
		t.Error("an empty position must hash to empty")
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Idempotency key design", "idempotency-key-design"},
		{"Crème brûlée — straße!", "creme-brulee-strasse"},
		{"Проверка ключей", "proverka-kliuchei"},
		{"../../etc/passwd", "etc-passwd"},
		{"..", ""},
		{"日本語", ""},
		{"  --a--b--  ", "a-b"},
	} {
		if got := Slug(tc.in, 60); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := Slug(strings.Repeat("word ", 40), 60)
	if len(long) > 60 || strings.HasSuffix(long, "-") {
		t.Errorf("long slug %q", long)
	}
	if s := SlugOr("日本語", 60); !strings.HasPrefix(s, "topic-") || len(s) != 14 {
		t.Errorf("SlugOr fallback = %q", s)
	}
}

func TestIDs(t *testing.T) {
	t.Parallel()
	id := NewID(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), LayerSpec, "Idempotency key design for the payments API v2")
	if err := ValidateID(id); err != nil {
		t.Fatalf("NewID made an invalid id %q: %v", id, err)
	}
	if !strings.HasPrefix(id, "20261130-spec-idempotency-key-design-for-the") {
		t.Fatalf("id %q", id)
	}
	for _, bad := range []string{"", "..", "../x", "20261130-spec-x", "20261130-spec-a/b-abcdef", "20261130-other-x-abcdef", "20261130-spec-x-abcdef\x00"} {
		if err := ValidateID(bad); !errors.Is(err, ErrInvalidID) {
			t.Errorf("ValidateID(%q) = %v", bad, err)
		}
	}
}

func TestTurnClaimAlias(t *testing.T) {
	t.Parallel()
	var tu Turn
	if err := json.Unmarshal([]byte(`{"debate_id":"d","round":1,"role":"attacker","claim":"X holds","counter_to":"Y"}`), &tu); err != nil {
		t.Fatal(err)
	}
	if tu.Position != "X holds" || tu.Role != RoleAttacker {
		t.Fatalf("claim alias: %+v", tu)
	}
	if err := json.Unmarshal([]byte(`{"position":"P","claim":"C"}`), &tu); err != nil || tu.Position != "P" {
		t.Fatalf("position wins over claim: %+v %v", tu, err)
	}
}

// A recorded turn decodes every field, its own and its Turn's, with the
// "claim" alias (position wins when both are there).
func TestTurnRecordDecodes(t *testing.T) {
	t.Parallel()
	want := TurnRecord{
		Turn: Turn{DebateID: "d", Round: 2, Role: RoleDefender, Position: "P", CounterTo: "C", EvidenceRefs: []string{"a.go:1"},
			ConfidenceChange: -1, Tokens: 7, Text: "why"},
		Agent: "Proposer", RequestID: "r", MessageID: "m", PositionHash: "h", TokensEstimated: true, OverBudget: true,
		Evidence: []EvidenceCheck{{Ref: "a.go:1", Kind: "line", Status: EvidenceOK}},
	}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got TurnRecord
	if err := json.Unmarshal(data, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, got, want)
	}
	for in, pos := range map[string]string{
		`{"claim":"X holds","agent":"Critic"}`:               "X holds",
		`{"position":"P","claim":"C","agent":"Critic"}`:      "P",
		`{"position":"","claim":"X holds","agent":"Critic"}`: "X holds",
	} {
		var r TurnRecord
		if err := json.Unmarshal([]byte(in), &r); err != nil || r.Position != pos || r.Agent != "Critic" {
			t.Errorf("%s: %+v %v", in, r, err)
		}
	}
}

func TestDefaultBudgets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		l                Layer
		rounds, tok, per int
	}{{LayerSpec, 3, 6000, 2000}, {LayerPlan, 3, 10000, 3000}, {LayerVerify, 4, 8000, 2000}} {
		b := DefaultBudget(tc.l)
		if b.MaxRounds != tc.rounds || b.MaxTokens != tc.tok || b.MaxTokensPerRound != tc.per || b.MaxWallClockMs != 120000 || b.ConvergenceRounds != 1 {
			t.Errorf("%s: %+v", tc.l, b)
		}
		if err := b.Validate(); err != nil {
			t.Error(err)
		}
	}
	two := 2
	if b := DefaultBudget(LayerSpec).Apply(BudgetOverride{MaxRounds: &two}); b.MaxRounds != 2 || b.MaxTokens != 6000 {
		t.Errorf("override: %+v", b)
	}
	zero := 0
	if err := DefaultBudget(LayerSpec).Apply(BudgetOverride{MaxTokens: &zero}).Validate(); !errors.Is(err, ErrInvalidBudget) {
		t.Errorf("zero tokens accepted: %v", err)
	}
	if EstimateTokens("abcde") != 2 || EstimateTokens("") != 0 {
		t.Error("EstimateTokens")
	}
}

// BenchmarkTurnRecordDecode measures decoding one recorded turn, as every
// replay, status and transcript page does for each turn.
func BenchmarkTurnRecordDecode(b *testing.B) {
	rec := TurnRecord{
		Turn:  Turn{DebateID: "d", Round: 1, Role: RoleAttacker, Position: "p", EvidenceRefs: []string{"a.go:1"}, Text: strings.Repeat("x ", 200)},
		Agent: "Critic", RequestID: "r", Evidence: []EvidenceCheck{{Ref: "a.go:1", Kind: "line", Status: EvidenceOK}},
	}
	data, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var r TurnRecord
		if err := json.Unmarshal(data, &r); err != nil || r.Agent != "Critic" || r.Position != "p" {
			b.Fatal(err)
		}
	}
}
