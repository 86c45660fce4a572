package transcripts

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// FuzzView reads arbitrary bytes as a tampered transcript would be read
// (every line that decodes, hashes unchecked) and renders it every way: no
// panic, and no markup from the bytes survives into the HTML.
func FuzzView(f *testing.F) {
	f.Add(tinyTranscript(f, 3))
	f.Add([]byte(`{"kind":"turn","data":{"round":1,"role":"attacker\" onclick=\"x","agent":"<b>","position":"<script>alert(1)</script>","evidence":[{"ref":"javascript:alert(1)","kind":"url","status":"ok"}]}}` + "\n"))
	f.Add([]byte(`{"kind":"forfeit","data":{"round":-3,"reason":"<i>"}}` + "\n" + `{"kind":"resume","data":{}}` + "\n" + `{"kind":"verdict","data":{"verdict":"<x>"}}`))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &Transcript{Session: testSession(testID), Events: readLenient(data), State: StateClosed,
			Report: &Report{ID: testID, BadLine: 1, Problem: "fuzzed"}}
		v := NewView(tr)
		for _, r := range v.Rounds {
			for _, e := range r.Entries {
				if !e.Unverified {
					t.Fatalf("an entry of a transcript that does not verify is not marked: %+v", e)
				}
			}
		}
		var html, text bytes.Buffer
		if err := RenderHTML(&html, v, HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := RenderText(&text, v); err != nil {
			t.Fatal(err)
		}
		md := RenderMarkdownView(v)
		body := html.String()
		body = body[strings.Index(body, "<body>"):]
		for _, bad := range []string{"<script", "<img", "<b>", "<i>", "<x>", `" onclick=`, `href="javascript`} {
			if strings.Contains(body, bad) {
				t.Fatalf("markup %q from the transcript reached the HTML", bad)
			}
		}
		if bytes.Contains(md, []byte("<script")) || strings.ContainsRune(text.String(), 0x1b) {
			t.Fatal("markup reached the Markdown, or an escape sequence the text")
		}
	})
}

func FuzzParseSince(f *testing.F) {
	for _, s := range []string{"7d", "36h", "2026-01-31", "2026-01-31T10:00:00Z", "-1d", "99999999999d", ""} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if at, err := ParseSince(s, now); err == nil && at.IsZero() {
			t.Fatalf("ParseSince(%q) gave no time and no error", s)
		}
	})
}
