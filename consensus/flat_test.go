package consensus

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// fullDecode is the YAML decoder alone, the reference of the fast path.
func fullDecode(data []byte) (recordYAML, []byte, error) {
	var y recordYAML
	body, err := vault.DecodeFrontmatter(data, &y)
	return y, body, err
}

// flatAgrees checks that when the fast path takes a page, the YAML decoder
// accepts it too and gives the same fields and body. It reports whether
// the fast path took it.
func flatAgrees(t testing.TB, data []byte) bool {
	t.Helper()
	var fast recordYAML
	fastBody, ok := vault.ScanFlatFrontmatter(data, fast.setFlat)
	if !ok {
		return false
	}
	fm, mapBody, mapOK := vault.DecodeFlatFrontmatter(data)
	if !mapOK || !bytes.Equal(mapBody, fastBody) {
		t.Fatalf("DecodeFlatFrontmatter does not read what ScanFlatFrontmatter reads:\n%q", data)
	}
	var fromMap recordYAML
	for k, v := range fm {
		fromMap.setFlat([]byte(k), v)
	}
	if !reflect.DeepEqual(fast, fromMap) {
		t.Fatalf("the map and the scan differ for\n%q\nscan %#v\nmap %#v", data, fast, fromMap)
	}
	full, body, err := fullDecode(data)
	if err != nil {
		t.Fatalf("the fast path took a page the YAML decoder rejects (%v):\n%q", err, data)
	}
	if !reflect.DeepEqual(fast, full) {
		t.Fatalf("fields differ for\n%q\nfast %#v\nfull %#v", data, fast, full)
	}
	if !bytes.Equal(fastBody, body) {
		t.Fatalf("bodies differ for\n%q\nfast %q\nfull %q", data, fastBody, body)
	}
	return true
}

// TestFlatDecodeAgrees: the records parley writes (generated ones, with
// supersession, evidence and hostile topics) take the fast path and decode
// to the same fields as through YAML; pages written by hand take it only
// when they agree, else fall back.
func TestFlatDecodeAgrees(t *testing.T) {
	e := newEnv(t)
	s := e.open(t)
	outs, _ := consensustest.Outcomes(60, 3)
	hostile := []string{
		"Thumbnails: \"WebP\" or JPEG? #perf [[x]]", "no", "1.0", "---", "null", "~", " padded ",
		"tab\there", "line\nbreak", "crlf\r\nend", "C1 \u0085 NEL \u2028 LS", "bell \x07 del \x7f", "emoji 🙂 and ünïcödé",
		"back\\slash \\\"q\\\"", "[[link|alias]] & *star* `code`", "key: value # not a comment",
	}
	for i, h := range hostile {
		outs = append(outs, outcome(idOf(i), h, debate.LayerPlan, debate.ConsensusReached, true))
	}
	if _, err := s.Import(t.Context(), outs); err != nil {
		t.Fatal(err)
	}
	d, err := e.v.OpenDir(Folder, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	names, _ := d.Names()
	fast := 0
	for _, n := range names {
		data, _, err := d.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if n == IndexName {
			continue
		}
		if !flatAgrees(t, data) {
			t.Errorf("a record parley wrote missed the fast path: %s", n)
		}
		fast++
	}
	if fast < len(outs) {
		t.Fatalf("read %d records, filed %d", fast, len(outs))
	}

	// Written by hand (as in Obsidian): each either agrees or falls back.
	head := "---\ntype: consensus\nlayer: spec\nverdict: CONSENSUS_REACHED\nstatus: active\n"
	hand := map[string]bool{ // page → whether the fast path should take it
		head + "topic: \"a\"\n---\nbody\n":                                                true,
		head + "topic: plain-word_1.0+x\n---\n":                                           true,
		head + "topic: \"a\"\nparticipants: []\n---\n":                                    true,
		head + "topic: \"a\"\nparticipants:\n---\n":                                       true,
		head + "topic: \"a\"\nparticipants: null\n---\n":                                  true,
		head + "topic: ~\n---\n":                                                          false,
		head + "topic: \"\\u00e9\\u0001\\t\"\n---":                                        true,
		head + "topic: \"a\"\ncustom: [\"x\", \"y\"]\nn: 3\n---\n\n":                      true,
		head + "topic: a b\n---\n":                                                        false,
		head + "topic: 'single'\n---\n":                                                   false,
		head + "topic: \"a\" # c\n---\n":                                                  false,
		head + "topic: \"a\"\n# comment\n---\n":                                           false,
		head + "topic: \"a\"\naliases:\n  - x\n  - y\n---\n":                              false,
		head + "topic: \"a\"\nparticipants: [a, b]\n---\n":                                false,
		head + "topic: \"a\"\nparticipants: \"a\"\n---\n":                                 false,
		head + "topic: [\"a\"]\n---\n":                                                    false,
		head + "topic: \"a\"\ntopic: \"b\"\n---\n":                                        false,
		head + "topic: \"a\"\r\n---\r\n":                                                  false,
		head + "topic: \"\\x41\"\n---\n":                                                  false,
		head + "topic: \"\\ud800\"\n---\n":                                                false,
		head + "topic: \"a\"\n  ---\nx: 1\n---\n":                                         false,
		head + "topic: &a \"x\"\nupdated: *a\n---\n":                                      false,
		head + "topic: !!str x\n---\n":                                                    false,
		head + "topic: -x\n---\n":                                                         false,
		head + "topic: \"a\"\n":                                                           false,
		"\n" + head + "topic: \"a\"\n---\n":                                               false,
		"---yaml\ntype: consensus\n---\n":                                                 false,
		head + "topic: \"a\u2028b\"\n---\n":                                               false,
		head + "topic: \"a\xffb\"\n---\n":                                                 false,
		head + "topic: \"a\"\n" + strings.Repeat("k: \"v\"\n", 1) + "--- \n":              false,
		head + "topic: \"" + strings.Repeat("x", vault.MaxFrontmatterBytes) + "\"\n---\n": false,
	}
	for page, want := range hand {
		if got := flatAgrees(t, []byte(page)); got != want {
			t.Errorf("fast path took=%v, want %v, for\n%q", got, want, page)
		}
		// Whatever the path, parseRecord answers as the YAML decoder does.
		fy, _, ferr := fullDecode([]byte(page))
		y, _, err := decodeRecordYAML([]byte(page))
		if (err == nil) != (ferr == nil) || (err == nil && !reflect.DeepEqual(y, fy)) {
			t.Errorf("decodeRecordYAML differs from YAML for\n%q: %v / %v", page, err, ferr)
		}
	}
}

func idOf(i int) string { return fmt.Sprintf("20261201-plan-flat-aaaa%c%c", 'a'+i/26, 'a'+i%26) }

// FuzzFlatDecode: on any input the fast path either declines or agrees
// with the YAML decoder on every field and the body.
func FuzzFlatDecode(f *testing.F) {
	e := newEnv(f)
	p := e.file(f, outcome(idA, "Idempotency key: \"design\" #1", debate.LayerSpec, debate.ConsensusReached, true))
	f.Add([]byte(e.read(f, p)))
	f.Add([]byte("---\ntopic: \"a\\u0041\\n\"\nparticipants: [\"x\", \"\"]\nn: 1.5e3\n---\nbody"))
	f.Add([]byte("---\ntopic: null\nevidence_lines: []\nstatus: yes\n---"))
	f.Fuzz(func(t *testing.T, data []byte) {
		flatAgrees(t, data)
	})
}
