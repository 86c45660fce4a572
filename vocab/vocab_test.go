package vocab

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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

func TestValidateName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"Alice", "a", "critic_2", "Plan-Reviewer", "_x", strings.Repeat("n", MaxNameLen)} {
		if err := ValidateName(ok); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "-lead", "../etc", "a/b", "Аlice", "sp ace", "dot.name", strings.Repeat("n", MaxNameLen+1), "nul\x00"} {
		if err := ValidateName(bad); !errors.Is(err, ErrInvalidName) {
			t.Errorf("ValidateName(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
}

// A refused name is quoted whole when it is short, and cut with an
// ellipsis when it is long (a pasted paragraph), so that the reader sees
// that it goes on.
func TestARefusedNameIsQuotedOrCutVisibly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, quoted string }{
		{strings.Repeat("n", 60) + ".", `"` + strings.Repeat("n", 59) + `…"`},
		{strings.Repeat("é", 200), `"` + strings.Repeat("é", 59) + `…"`},
		{strings.Repeat("n", 59) + "/", `"` + strings.Repeat("n", 59) + `/"`},
		{"dot.name", `"dot.name"`},
	} {
		err := ValidateName(tc.name)
		if err == nil || !strings.Contains(err.Error(), ": "+tc.quoted+" (use") {
			t.Errorf("ValidateName(%d runes) = %v; want it quoted as %s", utf8.RuneCountInString(tc.name), err, tc.quoted)
		}
	}
}

func TestParseWords(t *testing.T) {
	t.Parallel()
	if l, err := ParseLayer(" Verify "); err != nil || l != LayerVerify {
		t.Errorf("ParseLayer(Verify) = %q, %v", l, err)
	}
	if _, err := ParseLayer("design"); !errors.Is(err, ErrUnknownLayer) {
		t.Errorf("ParseLayer(design) = %v, want ErrUnknownLayer", err)
	}
	if v, err := ParseVerdict("deadlock"); err != nil || v != Deadlock {
		t.Errorf("ParseVerdict(deadlock) = %q, %v", v, err)
	}
	if _, err := ParseVerdict("AGREED"); !errors.Is(err, ErrUnknownVerdict) {
		t.Errorf("ParseVerdict(AGREED) = %v, want ErrUnknownVerdict", err)
	}
	for _, v := range Verdicts {
		if v.Filed() == (v == Unavailable) {
			t.Errorf("%s.Filed() = %v", v, v.Filed())
		}
	}
	for _, tc := range []struct {
		v     Verdict
		final string
		want  Action
	}{
		{ConsensusReached, "", ActionProceed},
		{BudgetExhausted, "the last agreed position", ActionProceed},
		{BudgetExhausted, "  ", ActionEscalate},
		{Deadlock, "x", ActionEscalate},
		{Timeout, "", ActionEscalate},
		{Unavailable, "", ActionEscalate},
	} {
		if got := ActionFor(tc.v, tc.final); got != tc.want {
			t.Errorf("ActionFor(%s, %q) = %s, want %s", tc.v, tc.final, got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 lines", 1: "1 line", 2: "2 lines", 1000: "1000 lines"} {
		if got := Count(n, "line"); got != want {
			t.Errorf("Count(%d, line) = %q, want %q", n, got, want)
		}
	}
}
