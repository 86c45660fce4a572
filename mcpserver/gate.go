package mcpserver

import (
	"context"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/gating"
)

// GateInput is the input of the gate tool: a self-critique, either as
// Markdown/plain text (Text) or as its fields (only Critique required), as
// "parley gate" reads it.
type GateInput struct {
	Text              string   `json:"text,omitempty" jsonschema:"the whole self-critique as Markdown or plain text (sections such as Initial answer, Self-critique, Final answer; lines like Confidence: 0.8); instead of the fields below"`
	Layer             string   `json:"layer,omitempty" jsonschema:"the question's layer (spec, plan, verify); overrides the self-critique's"`
	Question          string   `json:"question,omitempty"`
	InitialAnswer     string   `json:"initial_answer,omitempty"`
	Reasoning         string   `json:"reasoning,omitempty"`
	Critique          string   `json:"critique,omitempty" jsonschema:"the self-critique (required unless text is given)"`
	FinalAnswer       string   `json:"final_answer,omitempty"`
	InitialConfidence any      `json:"initial_confidence,omitempty" jsonschema:"a number from 0 to 1, or a string such as 80%"`
	FinalConfidence   any      `json:"final_confidence,omitempty" jsonschema:"a number from 0 to 1, or a string such as 80%"`
	Confidence        any      `json:"confidence,omitempty" jsonschema:"alias of final_confidence"`
	EvidenceRefs      []string `json:"evidence_refs,omitempty" jsonschema:"paths, path:line, [[wiki pages]] or URLs the answer rests on"`
	Mode              string   `json:"mode,omitempty" jsonschema:"model (the trained classifier, default) or rules (the seed's starter rule)"`
}

// gateCritique is the JSON self-critique built from the fields.
type gateCritique struct {
	Question          string   `json:"question,omitempty"`
	InitialAnswer     string   `json:"initial_answer,omitempty"`
	Reasoning         string   `json:"reasoning,omitempty"`
	Critique          string   `json:"critique"`
	FinalAnswer       string   `json:"final_answer,omitempty"`
	InitialConfidence any      `json:"initial_confidence,omitempty"`
	FinalConfidence   any      `json:"final_confidence,omitempty"`
	Confidence        any      `json:"confidence,omitempty"`
	EvidenceRefs      []string `json:"evidence_refs,omitempty"`
}

// given reports whether any field of the self-critique is set.
func (c *gateCritique) given() bool {
	return c.Question != "" || c.InitialAnswer != "" || c.Reasoning != "" || c.Critique != "" || c.FinalAnswer != "" ||
		c.InitialConfidence != nil || c.FinalConfidence != nil || c.Confidence != nil || len(c.EvidenceRefs) > 0
}

func (s *Server) addGateTool() {
	in, err := jsonschema.For[GateInput](nil)
	if err != nil {
		panic(err) // a programming error in GateInput
	}
	for _, k := range []string{"initial_confidence", "final_confidence", "confidence"} {
		in.Properties[k].Types = []string{"number", "string", "null"}
	}
	addTool(s, &mcp.Tool{
		Name:  "gate",
		Title: "Ask the gate whether a question deserves a debate",
		Description: "Give a self-critique (text, or its fields with at least critique) and get debate or skip, " +
			"the score against the threshold and the cues that fired with the text that fired them. " +
			"The decision is appended to <root>/gate.jsonl like \"parley gate\" does, under the id returned: " +
			s.commandLine("gate", "label", "--decision", "ID") + " --debate (or --skip) labels it later.",
		InputSchema: in,
	}, s.gate)
}

// GateOutput is the result of the gate tool: what "parley gate --json"
// prints, the decision with the short id it is logged under in gate.jsonl
// ("parley gate label --decision ID" labels it).
type GateOutput = app.GateDecision

func (s *Server) gate(_ context.Context, _ *mcp.CallToolRequest, in GateInput) (*mcp.CallToolResult, GateOutput, error) {
	var d GateOutput
	var g *gating.Gate
	var err error
	if s.cfg.LoadGate != nil {
		g, err = s.cfg.LoadGate(in.Mode)
	} else {
		g, err = app.GateFor(in.Mode, s.cfg.Gate)
	}
	if err != nil {
		return nil, d, s.toolError(err)
	}
	fields := gateCritique{
		Question: in.Question, InitialAnswer: in.InitialAnswer, Reasoning: in.Reasoning, Critique: in.Critique,
		FinalAnswer: in.FinalAnswer, InitialConfidence: in.InitialConfidence, FinalConfidence: in.FinalConfidence,
		Confidence: in.Confidence, EvidenceRefs: in.EvidenceRefs,
	}
	var sc gating.SelfCritique
	if in.Text != "" {
		if fields.given() {
			return nil, d, invalidf("give the self-critique as text or as its fields, not both")
		}
		sc, err = gating.ParseBytes([]byte(in.Text))
	} else {
		var b []byte
		if b, err = json.Marshal(fields); err == nil {
			sc, err = gating.ParseJSON(b)
		}
	}
	if err != nil {
		return nil, d, invalidf("%w", err)
	}
	var log func(gating.LogEntry) error
	if s.cfg.Root != "" { // the root exists: the messenger made it
		log = func(e gating.LogEntry) error { return app.AppendGateLog(s.cfg.Root, false, e) }
	}
	res, err := app.Decide(g, app.GateInput{Critique: sc, Layer: in.Layer, Source: "mcp"}, log)
	if err != nil {
		return nil, d, s.toolError(err)
	}
	if log == nil {
		res.ID = "" // logged nowhere: nothing to label
	}
	return nil, *res, nil
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
