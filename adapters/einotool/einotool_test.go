package einotool_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/opentoolgen/opentoolgen/adapters/einotool"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
)

// weather is the test's weather service: it fails for Atlantis.
type weather struct{}

func (weather) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	if a.CurrentWeatherInfo.Location == "Atlantis" {
		return "", errors.New("no weather under the sea")
	}
	return "22 " + string(a.CurrentWeatherInfo.Format) + " in " + a.CurrentWeatherInfo.Location, nil
}

func (weather) GetNDayWeatherForecast(context.Context, weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return "sunny", nil
}

// texts is a mocktool service whose SequentiallyRead streams its texts.
type texts struct{ mocktool.Service }

func (texts) SequentiallyRead(_ context.Context, emit func(mocktool.Text) error) error {
	for _, s := range []mocktool.Text{"a", "b", "c"} {
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
}

func call(id, name, args string) schema.ToolCall {
	return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
}

// TestToolsNode runs a generated tool in Eino's ToolsNode as an agent's graph
// does after a model answered with tool calls: the result and the tool's
// errors come back as tool messages with the calls' IDs.
func TestToolsNode(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := einotool.Tools(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	info, err := tools[0].Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "get_current_weather" || info.Desc != "Get the current weather" {
		t.Errorf("Info = %q, %q", info.Name, info.Desc)
	}
	js, err := info.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(js); !strings.Contains(string(b), `"required":["currentWeatherInfo"]`) || !strings.Contains(string(b), `"enum":["celsius","fahrenheit"]`) {
		t.Errorf("parameters = %s", b)
	}

	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		call("c1", "get_current_weather", `{"currentWeatherInfo":{"location":"Paris","format":"celsius"}}`),
		call("c2", "get_current_weather", `{"currentWeatherInfo":{"location":"Atlantis","format":"celsius"}}`),
		call("c3", "get_current_weather", `{"currentWeatherInfo":{"location":"Paris","format":"kelvin"}}`),
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, content string }{
		{"c1", `{"currentWeather":"22 celsius in Paris"}`},
		{"c2", `{"error":{"code":500,"message":"no weather under the sea"}}`},
		{"c3", `"code":-32602`},
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d messages, want %d", len(msgs), len(want))
	}
	for i, w := range want {
		m := msgs[i]
		if m.Role != schema.Tool || m.ToolCallID != w.id || !strings.Contains(m.Content, w.content) {
			t.Errorf("message %d = %s %s %s, want %s containing %s", i, m.Role, m.ToolCallID, m.Content, w.id, w.content)
		}
	}
	if !strings.Contains(msgs[2].Content, "/currentWeatherInfo/format") {
		t.Errorf("the violation does not name the argument: %s", msgs[2].Content)
	}
}

// TestStream streams a streaming function through ToolsNode.Stream: the
// chunks joined are the same JSON as its invoked result.
func TestStream(t *testing.T) {
	ctx := context.Background()
	mt, err := mocktool.NewTool(texts{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := einotool.Tools(ctx, mt)
	if err != nil {
		t.Fatal(err)
	}
	var seq tool.BaseTool
	for _, tl := range tools {
		if info, _ := tl.Info(ctx); info.Name == "sequentiallyRead" {
			seq = tl
		}
	}
	if _, ok := seq.(tool.StreamableTool); !ok {
		t.Fatalf("SequentiallyRead is a %T, not a StreamableTool", seq)
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	in := schema.AssistantMessage("", []schema.ToolCall{call("s1", "sequentiallyRead", "")})
	sr, err := node.Stream(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var chunks [][]*schema.Message
	for {
		c, err := sr.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	msgs, err := schema.ConcatMessageArray(chunks)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"items":[{"text":"a"},{"text":"b"},{"text":"c"}]}`
	if len(chunks) < 3 || msgs[0].Content != want {
		t.Errorf("%d chunks joined = %s, want %s in several", len(chunks), msgs[0].Content, want)
	}
	invoked, err := node.Invoke(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if invoked[0].Content != want {
		t.Errorf("invoked = %s, want %s", invoked[0].Content, want)
	}
}
