package debate

// Summary is the one JSON view of a debate, whoever shows it: the
// transcripts' listing and status, the CLI's verdict line, the MCP
// server's transcript tool and a consensus record all embed it, and add
// beside it only what is their own (state, files, integrity, the record's
// place in its chain). What the debate was about is always there; how it
// ended is there once it has (the fields are left out of the JSON while
// they are empty).
type Summary struct {
	DebateID string `json:"debate_id"`
	Topic    string `json:"topic"`
	Layer    Layer  `json:"layer"`
	// Verdict, Action, Rule and Reason say how the debate ended, and
	// FinalPosition what stands ("" when nothing was agreed).
	Verdict       Verdict `json:"verdict,omitempty"`
	Action        Action  `json:"action,omitempty"`
	Rule          Rule    `json:"rule,omitempty"`
	Reason        string  `json:"reason,omitempty"`
	FinalPosition string  `json:"final_position,omitempty"`
	// Rounds begun, tokens spent and active time, as the verdict counts
	// them (or so far, for a view of a running debate that counts them).
	Rounds    int   `json:"rounds,omitempty"`
	Tokens    int   `json:"tokens,omitempty"`
	ElapsedMs int64 `json:"elapsed_ms,omitempty"`
	// Unavailable names the agent and the cause of an UNAVAILABLE verdict.
	Unavailable *UnavailableError `json:"unavailable,omitempty"`
}

// SummaryOf is the summary of the debate s, closed with o (nil while it
// has no verdict).
func SummaryOf(s *DebateSession, o *Outcome) Summary {
	sum := Summary{DebateID: s.ID, Topic: s.Topic, Layer: s.Layer}
	if o != nil {
		sum.Verdict, sum.Action, sum.Rule, sum.Reason, sum.FinalPosition = o.Verdict, o.Action, o.Rule, o.Reason, o.FinalPosition
		sum.Rounds, sum.Tokens, sum.ElapsedMs, sum.Unavailable = o.Rounds, o.Tokens, o.ElapsedMs, o.Unavailable
	}
	return sum
}
