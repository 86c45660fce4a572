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

// FuzzCompare checks that the analysis of any text (topics and positions
// as agents write them) never panics, stays symmetric where it must, and
// answers one of the three agreements.
func FuzzCompare(f *testing.F) {
	f.Add("Serve thumbnails as WebP at quality 80", "Thumbnails are WebP (q=80); browsers without WebP get JPEG.")
	f.Add("Retry 3 times unless the error is permanent", "do not retry")
	f.Add("twenty five hundred and one million 1,000.5k 10ms", "half an hour per minute every day nightly")
	f.Add("Send at 22:00, not 8 am; 12:60 pm", "No — 10pm a month ahead, 8 GPUs at once, billing jobs included rather than x")
	f.Add(strings.Repeat("not ", 500), strings.Repeat("1e999 ", 100))
	f.Add("\x00\xff\u2028[[x]]", "")
	f.Add("at most 1.8 m, 400 kg, 0.5 L; taller than 2 m; R-14, X.509, §4.2, T-30", "kick_after_s: 300 min_depth_cm 380; an hour and a half; I'm removing the cap; we'll switch it to -Ofast")
	f.Fuzz(func(t *testing.T, a, b string) {
		c := ComparePositions(a, b)
		switch c.Agreement {
		case Agree, Disagree, Unsure:
		default:
			t.Fatalf("agreement %q", c.Agreement)
		}
		if c.Score < 0 || c.Score > 1 {
			t.Fatalf("score %v", c.Score)
		}
		if ts := TopicScore(a, b); ts < 0 || ts > 1 {
			t.Fatalf("topic score %v", ts)
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
