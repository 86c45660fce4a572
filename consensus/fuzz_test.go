package consensus

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// FuzzParseRecord feeds arbitrary bytes to the record decoder: it must
// never panic, and a record it accepts must be well formed.
func FuzzParseRecord(f *testing.F) {
	e := newEnv(f)
	p := e.file(f, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	good := e.read(f, p)
	f.Add([]byte(good))
	f.Add([]byte(good[:len(good)/3]))
	f.Add([]byte(strings.Replace(good, "spec", "review", 1)))
	f.Add([]byte("---\ntype: consensus\nlayer: plan\nverdict: deadlock\nstatus: active\ntopic: x\n---\n"))
	f.Add([]byte("---\ntype: consensus\nparticipants: [a, [b]]\n---\n"))
	f.Add([]byte("---\ntype: consensus\nsupersedes: \"[[a|b]]\"\nsuperseded_by: 3\n---\n"))
	f.Add([]byte("---\n&a [*a, *a]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, text, err := parseRecord("spec-fuzz.md", data)
		if err != nil || r == nil {
			return
		}
		if r.Topic == "" || r.Slug != TopicSlug(r.Topic) || r.Name != "spec-fuzz" || r.Path != Folder+"/spec-fuzz.md" {
			t.Fatalf("accepted a malformed record %+v", r)
		}
		if _, err := debate.ParseLayer(string(r.Layer)); err != nil {
			t.Fatalf("layer %q", r.Layer)
		}
		if !strings.Contains(text, r.Topic) {
			t.Fatalf("search text lacks the topic")
		}
		_ = r.Binding()
	})
}

// FuzzDecodeSnapshot checks that a corrupt cache file is refused, never
// trusted with bad names, and never panics.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add([]byte(`{"version":1,"vault":"/v","entries":[{"name":"spec-a.md","size":3,"mtime_ns":1,"record":{"name":"spec-a","path":"wiki/consensus/spec-a.md","topic":"A","slug":"a"}}]}`))
	f.Add([]byte(`{"version":1,"entries":[{"name":"../../etc/passwd.md"}]}`))
	f.Add([]byte(`{"version":1,"entries":[null]}`))
	f.Add([]byte(`{"version":1,"entries":[{"name":"a.md"},{"name":"a.md"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := decodeSnapshot(data)
		if err != nil {
			return
		}
		for _, e := range snap.Entries {
			if validFile(e.Name) != nil || !strings.HasSuffix(e.Name, ".md") {
				t.Fatalf("accepted entry name %q", e.Name)
			}
			if r := e.Record; r != nil && (r.Slug != TopicSlug(r.Topic) || r.Name+".md" != e.Name) {
				t.Fatalf("accepted inconsistent record %+v", r)
			}
		}
	})
}

// FuzzTopicSlug checks that every topic slugs to a safe, bounded file name.
func FuzzTopicSlug(f *testing.F) {
	for _, s := range []string{"Idempotency key design", "..", "", "🦜", "Version 2", strings.Repeat("ab ", 40), "Тема", "a/b\\c\x00d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		s := TopicSlug(topic)
		if s == "" || len(s) > MaxSlug || !slugRE.MatchString(s) {
			t.Fatalf("TopicSlug(%q) = %q", topic, s)
		}
		if TopicSlug(topic) != s {
			t.Fatal("not deterministic")
		}
	})
}
