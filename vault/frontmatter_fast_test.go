package vault

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// viaYAML is what the yaml.v3 path decodes a block into.
func viaYAML(block []byte) (map[string]any, error) {
	var m map[string]any
	err := decodeYAML(block, &m)
	return m, err
}

// agreeOrDecline fails when the fast path reads block and its values are
// not yaml.v3's; it reports whether the fast path read it.
func agreeOrDecline(t testing.TB, block []byte) bool {
	t.Helper()
	fast, ok := fastFrontmatter(block)
	if !ok {
		return false
	}
	want, err := viaYAML(block)
	if err != nil {
		t.Fatalf("the fast path read what YAML rejects (%v):\n%s\nfast: %#v", err, block, fast)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("the fast path and YAML disagree on\n%s\nfast: %#v\nyaml: %#v", block, fast, want)
	}
	return true
}

// The frontmatter parley writes, and the simple keys people add beside it
// in Obsidian, are read by the fast path, with yaml.v3's values.
func TestFastFrontmatterAgreesWithYAML(t *testing.T) {
	t.Parallel()
	fast := map[string]string{
		"a record": "type: \"consensus\"\nlayer: \"plan\"\nverdict: \"CONSENSUS_REACHED\"\ndate: 2026-11-30\nparticipants: [\"SwiftRaven\", \"GoldFalcon\"]\n" +
			"topic: \"Cache \\\"hot\\\" keys: yes or no?\"\nrelated: [\"[[20261130-plan-x]]\"]\nstatus: \"active\"\ncreated: \"2026-12-01T22:28:52.380Z\"\n" +
			"tags: [\"consensus\", \"plan\"]\nfinal_position:\nfinal_position_hash:\nsupersedes:\nsuperseded_by: \"[[plan-x-2]]\"\n",
		"a transcript page":         "type: \"debate\"\ntranscript_events: 10\nrounds: 3\nagreed: true\nsealed: false\nsurplus: -4\nzero: 0\n",
		"escapes and other scripts": "topic: \"Größe der Vorschaubilder \\u0007 tab\\there\\nline \\\\ end\"\nnote: \"日本語のメモ\"\n",
		"empty lists and nulls":     "tags: []\naliases:\nx: null\ny: Null\nz: NULL\n",
		"a user's plain words":      "title: My reading notes\nauthor: Ana María Pérez\ncategory: books/fiction\nrating: 5\npublished: 1999-04-01\nrate: yes\nmood: off\n",
		"an Obsidian list":          "tags:\n  - reading\n  - \"to do\"\n  - 2026\n  - 2026-01-02\naliases:\n  - Notes on caching\n",
		"a nested mapping":          "nested:\n  when: 2026-05-14\n  list: [2026-01-02, \"x\"]\n  ok: true\n  none:\nstatus: \"active\"\n",
		"plain items in a flow":     "tags: [alpha, beta gamma, \"delta, epsilon\", 7, true]\n",
	}
	for name, block := range fast {
		t.Run(name, func(t *testing.T) {
			if !agreeOrDecline(t, []byte(block)) {
				t.Errorf("the fast path declined:\n%s", block)
			}
		})
	}
	// Each of these is YAML the fast path must leave to yaml.v3 (it would
	// misread it, or YAML rejects it): declining is the only right answer.
	decline := map[string]string{
		"hex":                    "a: 0x1F\n",
		"octal":                  "a: 012\n",
		"0o octal":               "a: 0o17\n",
		"float":                  "ratio: 0.5\n",
		"exponent":               "a: 1e3\n",
		"leading dot":            "a: .5\n",
		"infinity":               "a: .inf\n",
		"negative zero":          "a: -0\n",
		"underscored int":        "a: 1_000\n",
		"too big for an int":     "a: 123456789012345678901\n",
		"plus sign":              "a: +5\n",
		"tilde null":             "a: ~\n",
		"anchor":                 "a: &x value\nb: *x\n",
		"alias":                  "b: *x\n",
		"tag":                    "a: !!str 5\n",
		"literal block":          "a: |\n  two\n  lines\n",
		"folded block":           "a: >\n  two\n  lines\n",
		"single quotes":          "a: 'it''s'\n",
		"flow mapping":           "a: {b: c}\n",
		"comment after a value":  "a: \"x\" # note\n",
		"comment line":           "# note\na: b\n",
		"hash in a plain value":  "a: b #c\n",
		"colon in a plain value": "a: b: c\n",
		"two spaces after colon": "a:  b\n",
		"no space after colon":   "a:b\n",
		"CRLF":                   "a: b\r\nc: d\r\n",
		"tab":                    "a:\tb\n",
		"blank line":             "a: b\n\nc: d\n",
		"duplicate key":          "a: b\na: c\n",
		"duplicate nested key":   "n:\n  a: b\n  a: c\n",
		"boolean key":            "true: x\n",
		"null key":               "null: x\n",
		"merge key":              "<<: x\n",
		"quoted key":             "\"a\": b\n",
		"three levels":           "a:\n  b:\n    c: d\n",
		"odd indentation":        "a:\n   - x\n",
		"one-space indentation":  "a:\n - x\n",
		"indentless list":        "a:\n- x\n",
		"mixed list and map":     "a:\n  - x\n  y: z\n",
		"continuation line":      "a: x\n  y\n",
		"nested flow":            "a: [b, [c]]\n",
		"flow without space":     "a: [b,c]\n",
		"unterminated quote":     "a: \"x\n",
		"unknown escape":         "a: \"\\x41\"\n",
		"surrogate escape":       "a: \"\\ud800\"\n",
		"line separator":         "a: x\u2028y\n",
		"next line":              "a: x\u0085y\n",
		"byte-order mark":        "a: x\ufeffy\n",
		"invalid UTF-8":          "a: x\xffy\n",
		"control character":      "a: x\x01y\n",
		"document end":           "a: b\n...\n",
		"document start":         "---\na: b\n",
		"directive":              "%YAML 1.2\na: b\n",
		"a list at the top":      "- a\n- b\n",
		"a scalar at the top":    "just text\n",
		"no final newline":       "a: b",
		"empty":                  "",
		"trailing space":         "a: b \n",
		"question mark key":      "? a\n: b\n",
		"date with a time":       "a: 2026-12-01T10:00:00Z\n",
		"empty list item":        "a:\n  -\n",
	}
	for name, block := range decline {
		t.Run(name, func(t *testing.T) {
			if agreeOrDecline(t, []byte(block)) {
				t.Errorf("the fast path read what it should leave to YAML:\n%q", block)
			}
		})
	}
}

// Any frontmatter Marshal writes, with values drawn from a hostile
// alphabet (and integers of up to 18 digits), is read by the fast path
// with yaml.v3's values, and ParsePage gives the same page either way.
func TestFastFrontmatterOfMarshal(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(14, 18))
	alphabet := []string{"a", "Z", "0", " ", "\"", "\\", "\n", "\r", "\t", ":", "#", "-", "---", "[[x]]", "é", "日", "\u2028", "\u0085",
		"\ufeff", "\x00", "\x7f", "\xff", "🙂", "yes", "null", "{", "}", "'", "&", "*", "!"}
	str := func() string {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	read := 0
	const n = 3000
	for i := range n {
		var fm Frontmatter
		for k := range 1 + r.IntN(8) {
			key := fmt.Sprintf("k%d_%d", i, k)
			var v any
			switch r.IntN(7) {
			case 0:
				v = str()
			case 1:
				v = []string{str(), str()}
			case 2:
				v = r.IntN(2000) - 1000
			case 3:
				v = r.Int64N(1e18) - r.Int64N(1e18)
			case 4:
				v = r.IntN(2) == 0
			case 5:
				v = Date(fmt.Sprintf("%04d-%02d-%02d", r.IntN(3000), r.IntN(14), r.IntN(40)))
			default:
				v = nil
			}
			fm = append(fm, Field{key, v})
		}
		b, err := fm.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		block := b[len("---\n") : len(b)-len("---\n")]
		if agreeOrDecline(t, block) {
			read++
		} else if testing.Verbose() {
			t.Logf("declined: %q", block)
		}
		page := append(b, "# Body\n"...)
		p, err := ParsePage("x.md", page)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := decodeYAML(block, &want); err != nil {
			t.Fatal(err)
		}
		if want = normalizeYAML(want).(map[string]any); !reflect.DeepEqual(p.Meta, want) {
			t.Fatalf("ParsePage of\n%s\ngave %#v, YAML %#v", b, p.Meta, want)
		}
	}
	if read != n {
		t.Errorf("the fast path read %d of %d blocks Marshal wrote", read, n)
	}
}

// BenchmarkParsePageFrontmatter decodes a record's frontmatter, as seal
// checks and lint read it, through the fast path and through yaml.v3.
func BenchmarkParsePageFrontmatter(b *testing.B) {
	block := []byte("type: \"consensus\"\nlayer: \"plan\"\nverdict: \"CONSENSUS_REACHED\"\ndate: 2026-11-30\nparticipants: [\"SwiftRaven\", \"GoldFalcon\"]\n" +
		"topic: \"Thumbnail cache size on the edge nodes\"\nrelated: [\"[[20261130-plan-g1-abcdef]]\"]\nstatus: \"active\"\ncreated: \"2026-12-01T22:28:52.380Z\"\n" +
		"updated: \"2026-12-01T22:28:52.380Z\"\ntags: [\"consensus\", \"plan\"]\ndebate_id: \"20261130-plan-g1-abcdef\"\naction: \"proceed\"\n" +
		"final_position: \"Cap the thumbnail cache at 2 GB per edge node\"\nfinal_position_hash: \"3f1c\"\nsupersedes:\nsuperseded_by:\ntranscript_events: 12\n")
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, ok := fastFrontmatter(block); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		for b.Loop() {
			if _, err := viaYAML(block); err != nil {
				b.Fatal(err)
			}
		}
	})
}
