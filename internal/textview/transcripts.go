package textview

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// cleanAll replaces every control character of s, newline and tab
// included: for a field on one line of a table.
func cleanAll(s string) string { return termsafe.Clean(s, "") }

// dateOnly is the date of an RFC 3339 time ("2026-01-31").
func dateOnly(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return ts
}

// Transcripts writes the debates' transcripts, one line each (date, layer,
// verdict or state, rounds, tokens, integrity, id, topic), with a header
// row when header is set; with none, that none matches under root.
func Transcripts(w io.Writer, list []transcripts.Summary, root string, header bool) error {
	if len(list) == 0 {
		_, err := fmt.Fprintf(w, "no debates match under %s\n", root)
		return err
	}
	idw, iw := idWidth(list, 44), integrityWidth(list)
	if header {
		fmt.Fprintf(w, "%-10s  %-6s  %-17s  %6s  %7s  %-*s  %-*s  %s\n", "DATE", "LAYER", "VERDICT", "ROUNDS", "TOKENS", iw, "INTEGRITY", idw, "ID", "TOPIC")
	}
	for _, s := range list {
		v := string(s.Verdict)
		if v == "" {
			v = "(" + string(s.State) + ")"
		}
		if _, err := fmt.Fprintf(w, "%-10s  %-6s  %-17s  %6d  %7d  %-*s  %-*s  %s\n", dateOnly(s.Created), cleanAll(string(s.Layer)), v, s.Rounds, s.Tokens, iw, s.Integrity, idw, s.DebateID, cleanAll(recLine(s.Topic, 60))); err != nil {
			return err
		}
	}
	return nil
}

// Transcript writes a debate as a reader follows it, in format text, md
// (the vault page's Markdown) or html (a whole page).
func Transcript(w io.Writer, v *transcripts.View, format string) error {
	switch format {
	case "md":
		_, err := w.Write(transcripts.RenderMarkdownView(v))
		return err
	case "html":
		return transcripts.RenderHTML(w, v, transcripts.HTMLOptions{})
	}
	return transcripts.RenderText(w, v)
}

// Audit writes a debate's hash chain and every file checked against its
// seal, one line each, and the seal's signature; resume is the command
// that continues the debate (with the caller's --root), which an
// unsealed debate needs for a signature.
func Audit(w io.Writer, v *app.Verification, resume string) error {
	id, in := v.ID, v.Integrity
	switch {
	case !in.Intact:
		fmt.Fprintf(w, "%s: TAMPERED at line %d: %s\n", id, in.BadLine, cleanAll(in.Problem))
	case in.Tampered():
		fmt.Fprintf(w, "%s: TAMPERED: %s\n", id, cleanAll(in.Trouble()))
	case in.Sealed:
		fmt.Fprintf(w, "%s: intact, %d events, head %s, sealed by verdict.json\n", id, in.Events, in.Head)
	case in.Events == 0:
		// A coordinator that died before its first event: no head to name.
		fmt.Fprintf(w, "%s: intact so far, nothing recorded yet, not sealed yet (no verdict.json)\n", id)
	default:
		fmt.Fprintf(w, "%s: intact so far, %d events, head %s, not sealed yet (no verdict.json)\n", id, in.Events, in.Head)
	}
	for _, f := range in.Files {
		line := fmt.Sprintf("  %-9s %s", f.Status, f.File)
		if f.Problem != "" {
			line += ": " + f.Problem
		}
		if f.FiledAs != "" {
			line += " (renamed since it was filed as " + f.FiledAs + ")"
		}
		fmt.Fprintf(w, "%s\n", cleanAll(line))
		if f.Status.Bad() && f.Want != "" {
			fmt.Fprintf(w, "            an intact one: %s\n", cleanAll(f.Want))
		}
	}
	var err error
	switch in.Signature {
	case transcripts.SigValid:
		_, err = fmt.Fprintf(w, "  signature valid (seal.publicKey)\n")
	case transcripts.SigInvalid:
		_, err = fmt.Fprintf(w, "  signature INVALID: the seal was not signed by seal.publicKey\n")
	case transcripts.SigMissing:
		_, err = fmt.Fprintf(w, "  signature MISSING although seal.publicKey is set\n")
	case transcripts.SigUnchecked:
		_, err = fmt.Fprintf(w, "  signed; set seal.publicKey in config.json to check the signature\n")
	case transcripts.SigNotSealed:
		_, err = fmt.Fprintf(w, "  signature NONE YET: seal.publicKey is set and the debate is not sealed, so no signature vouches for its files until it is (at its verdict; an interrupted debate: %s)\n", resume)
	}
	return err
}

// SealKey writes where a new seal key went and the "seal" section of the
// config file that uses it.
func SealKey(w io.Writer, key *app.SealKey, config string) error {
	data, _ := json.MarshalIndent(map[string]any{"seal": key}, "", "  ")
	_, err := fmt.Fprintf(w, "key written to %s; add to %s:\n%s\n", key.SigningKey, config, data)
	return err
}
