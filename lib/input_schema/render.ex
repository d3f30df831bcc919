defmodule InputSchema.Render do
  @moduledoc false
  # Answers rendered for a model, a person or another tool: `InputSchema.format_error/2`,
  # `InputSchema.tool_result/2`, `InputSchema.basic_output/1`, and the wording of
  # `role: :output`. Pure Elixir over any term: nothing here raises, and every output is
  # bounded whatever the answer holds (its size, its bytes, its number of errors).

  alias InputSchema.Messages

  # The most errors the text names, and the most lines of branch errors under one error.
  @max_text_errors 20
  @max_branch_lines 8
  # The longest a line of text, and a quoted value in it, may be (in characters).
  @max_line 300
  # A line that lists what is allowed (an enum's values, the properties allowed, a tag's
  # values: 64 at most, each at most 64 characters) is let run to this.
  @max_listing_line 5_000
  @max_value 64
  # The most errors `structuredContent` carries, and the longest string in it (in bytes).
  @max_structured_errors 100
  # The most units `basic_output/1` lists before the one that counts the rest.
  @max_units 100
  @max_string 1024
  # The most bytes of JSON the errors of `structuredContent` take in all, their strings and
  # numbers counted, whatever terms a detail holds.
  @max_structured_bytes 64 * 1024

  # The keywords whose details the renderer reads by name, each spelled once here.
  @type_keyword "type"
  @enum_keyword "enum"
  @required_keyword "required"
  @required_keywords [@required_keyword, "dependentRequired", "dependencies"]
  @branch_keywords ["anyOf", "oneOf"]

  # Each bound's words, and for a count what it counts, one and many.
  @bounds [
    {:minimum, "at least", nil},
    {:exclusiveMinimum, "more than", nil},
    {:maximum, "at most", nil},
    {:exclusiveMaximum, "less than", nil},
    {:multipleOf, "a multiple of", nil},
    {:minLength, "at least", {"character", "characters"}},
    {:maxLength, "at most", {"character", "characters"}},
    {:minItems, "at least", {"item", "items"}},
    {:maxItems, "at most", {"item", "items"}},
    {:minContains, "at least", {"matching item", "matching items"}},
    {:maxContains, "at most", {"matching item", "matching items"}},
    {:minProperties, "at least", {"property", "properties"}},
    {:maxProperties, "at most", {"property", "properties"}}
  ]

  # A detail map, as opposed to any other term an answer may hold (a struct included).
  defguardp is_detail(term) when is_map(term) and not is_struct(term)

  # Whether each byte of a 32-bit word is printable ASCII (0x20-0x7E): none has its top bit
  # set, each is at least 0x20 (adding 0x60 sets its top bit) and none is 0x7F (adding 1 would
  # set it). No byte carries into the next, since none is above 0x7F.
  defguardp is_printable_ascii(word)
            when Bitwise.band(word, 0x80808080) == 0 and
                   Bitwise.band(word + 0x60606060, 0x80808080) == 0x80808080 and
                   Bitwise.band(word + 0x01010101, 0x80808080) == 0

  # Whether each byte of a 32-bit word is ASCII.
  defguardp is_ascii(word) when Bitwise.band(word, 0x80808080) == 0

  # ---------------------------------------------------------------------------------------
  # format_error
  # ---------------------------------------------------------------------------------------

  @doc false
  def format_error(answer, _options), do: text_of(answer)

  # The text is written as iodata, from the detail's data, and made a binary once, after
  # `heading` (a binary, with its own line's end) where one is given.
  defp text_of(answer, heading \\ "") do
    case known_text(answer, heading) do
      nil -> IO.iodata_to_binary([heading | text_iodata(answer)])
      text -> text
    end
  end

  # The text of an answer whose every line is of a shape `known_said/3` knows: written with its
  # strings as they are, then read once, as a whole, for anything escaping would change (see
  # `raw/1`). `nil` where it holds any such thing or a line is too long to keep whole: the rules
  # then write it line by line.
  defp known_text({:error, _class, detail}, heading) when is_detail(detail) do
    case errors_of(detail, @max_text_errors) do
      # One error without branches: its line alone, bounded once it is a binary.
      {[only], 0} when not is_map_key(only, :branches) ->
        with {line, max} <- known_line(only) do
          text = IO.iodata_to_binary([heading | line])
          lines_text = after_heading(text, heading)
          if byte_size(lines_text) <= max and plain_lines(lines_text, 0) == 0, do: text
        end

      {shown, left} ->
        more = if left == 0, do: [], else: [["(", Integer.to_string(left), " more errors)"]]

        with [_ | _] = lines <- known_lines(shown, more) do
          text = IO.iodata_to_binary([heading | Enum.intersperse(lines, "\n")])
          # Escaping would keep each line as it is: the only newlines are those between lines.
          if plain_lines(after_heading(text, heading), 0) == length(lines) - 1, do: text
        end
    end
  end

  defp known_text(_answer, _heading), do: nil

  defp after_heading(text, heading),
    do: binary_part(text, byte_size(heading), byte_size(text) - byte_size(heading))

  # How many newlines a text of printable ASCII and newlines holds; `nil` for any other text.
  defp plain_lines(<<high::32, low::32, rest::binary>>, count)
       when is_printable_ascii(high) and is_printable_ascii(low),
       do: plain_lines(rest, count)

  defp plain_lines(<<word::32, rest::binary>>, count) when is_printable_ascii(word),
    do: plain_lines(rest, count)

  defp plain_lines(<<?\n, rest::binary>>, count), do: plain_lines(rest, count + 1)

  defp plain_lines(<<byte, rest::binary>>, count) when byte >= 0x20 and byte < 0x7F,
    do: plain_lines(rest, count)

  defp plain_lines(<<>>, count), do: count
  defp plain_lines(_text, _count), do: nil

  # The lines of `error_lines/2`, each of a known shape and short enough to keep whole, or nil.
  defp known_lines([], more), do: more

  defp known_lines([detail | rest], more) do
    {branches, _left} = detail_maps(Map.get(detail, :branches), @max_branch_lines)

    with {line, max} <- known_line(detail),
         true <- IO.iodata_length(line) <= max,
         lines when is_list(lines) <- known_branch_lines(branches, known_lines(rest, more)) do
      [line | lines]
    else
      _ -> nil
    end
  end

  defp known_branch_lines([], lines), do: lines
  defp known_branch_lines(_branches, nil), do: nil

  defp known_branch_lines([branch | rest], lines) do
    with %{branch: index} when is_integer(index) <- branch,
         {line, max} <- known_line(branch),
         line = ["  branch ", Integer.to_string(index), ": " | line],
         true <- IO.iodata_length(line) <= max,
         lines when is_list(lines) <- known_branch_lines(rest, lines) do
      [line | lines]
    else
      _ -> nil
    end
  end

  defp text_iodata({:error, _class, detail}) when is_detail(detail),
    do: detail |> errors_of(@max_text_errors) |> text_lines()

  defp text_iodata(_answer), do: []

  # `role: :output` heads any answer as a result check's; any other options are no keyword
  # list a renderer can refuse, and change nothing.
  defp output_role?(options),
    do: Keyword.keyword?(options) and Keyword.get(options, :role) == :output

  # An answer's first `count` errors (the detail maps of `errors: :all`, or its one), and how
  # many more it has: only what is shown is kept, the rest counted.
  defp errors_of(detail, count) do
    case detail_maps(Map.get(detail, :errors), count) do
      {[], 0} -> {[detail], 0}
      shown_and_left -> shown_and_left
    end
  end

  # The first `count` detail maps in a list, up to its end or an improper tail (none in any
  # other term), and how many more it holds.
  defp detail_maps(list, count), do: detail_maps(list, count, [], 0)

  defp detail_maps([item | rest], count, shown, left) when is_detail(item) and count > 0,
    do: detail_maps(rest, count - 1, [item | shown], left)

  defp detail_maps([item | rest], count, shown, left) when is_detail(item),
    do: detail_maps(rest, count, shown, left + 1)

  defp detail_maps([_item | rest], count, shown, left),
    do: detail_maps(rest, count, shown, left)

  defp detail_maps(_end, _count, shown, left), do: {Enum.reverse(shown), left}

  # The first `count` elements of a list, up to its end or an improper tail; none for any
  # other term.
  defp items(list, count), do: items(list, count, [])
  defp items([item | rest], count, acc) when count > 0, do: items(rest, count - 1, [item | acc])
  defp items(_end, _count, acc), do: Enum.reverse(acc)

  # The lines of the shown errors, each followed by its branches' lines, then the count of
  # the errors not shown; one newline between lines.
  defp text_lines({shown, left}) do
    more = if left == 0, do: [], else: [["(", Integer.to_string(left), " more errors)"]]
    shown |> error_lines(more) |> Enum.intersperse("\n")
  end

  defp error_lines([], more), do: more

  defp error_lines([detail | rest], more) do
    {branches, _left} = detail_maps(Map.get(detail, :branches), @max_branch_lines)
    [line(detail) | branch_lines(branches, error_lines(rest, more))]
  end

  defp branch_lines([], lines), do: lines

  defp branch_lines([branch | rest], lines) do
    line =
      bounded(["  branch ", text(Map.get(branch, :branch)), ": ", line(branch)], line_max(branch))

    [line | branch_lines(rest, lines)]
  end

  # An error's own line, without its branches.
  defp line(detail),
    do:
      bounded(
        [location(detail), ": ", text(Map.get(detail, :message)) | said(detail)],
        line_max(detail)
      )

  # The line of a detail of one of the shapes the NIF gives most (a wrong type, a bound, a
  # missing property, an enum, an anyOf/oneOf with its branches), told by its keyword and its
  # exact keys and read in one match: what the rules below make of such a detail, without
  # asking it for each key they know, with its strings unescaped, and the longest the line may
  # be. Its `evaluation_path`, `role` and `branch`, which its line does not show, may be there
  # too. `nil` for any other.
  defp known_line(%{keyword: keyword, message: message, pointer: pointer} = detail)
       when is_binary(keyword) and is_binary(message) and is_binary(pointer) do
    size = map_size(detail)

    # Most details have none of the keys no line shows: they are counted only for the others.
    case known_said(keyword, detail, size) ||
           known_said(keyword, detail, size - unshown_keys(detail)) do
      nil -> nil
      {said, max} -> {[raw_location(pointer), ": ", raw(message) | said], max}
    end
  end

  defp known_line(_detail), do: nil

  # A known text is written with its strings as they are: where it is all printable ASCII,
  # escaping each string would have kept it as it is, unless it is long enough to be cut. A
  # longer string is cut and escaped as the rules do it (and its ellipsis sends the text back
  # to them).
  defp raw(binary) when byte_size(binary) <= @max_value, do: binary
  defp raw(binary), do: printable_io(binary)

  defp raw_location(""), do: "(root)"
  defp raw_location(pointer), do: raw(pointer)

  defp raw_value(value) when is_binary(value) and byte_size(value) <= @max_value,
    do: [?", value | "\""]

  defp raw_value(value), do: value(value)

  defp raw_text(value) when is_binary(value) and byte_size(value) <= @max_value, do: value
  defp raw_text(value), do: text(value)

  defp unshown_keys(detail),
    do:
      count_key(detail, :evaluation_path) + count_key(detail, :role) + count_key(detail, :branch)

  defp count_key(map, key) when is_map_key(map, key), do: 1
  defp count_key(_map, _key), do: 0

  # What such a detail expected and got, and the longest its line may be; `nil` for a detail
  # of any other keys.
  defp known_said(@type_keyword, %{actual: actual, path: _, schema_path: _, type: type}, 7),
    do: {[": expected ", type_words(type, &raw_text/1), ", got " | raw_text(actual)], @max_line}

  defp known_said(@required_keyword, %{path: _, property: property, schema_path: _}, 6),
    do: {[": missing " | raw_value(property)], @max_line}

  defp known_said(@enum_keyword, %{enum: enum, path: _, schema_path: _}, 6) when is_list(enum),
    do: {[": expected one of " | listing(enum, nil, &raw_value/1)], @max_listing_line}

  for {key, words, counted} <- @bounds do
    defp known_said(
           unquote(Atom.to_string(key)),
           %{unquote(key) => bound, actual: actual, path: _, schema_path: _},
           7
         ),
         do:
           {[
              ": expected ",
              phrase(unquote(words), unquote(Macro.escape(counted)), bound, &raw_value/1),
              ", got " | raw_value(actual)
            ], @max_line}
  end

  # Its branches have lines of their own.
  defp known_said(keyword, %{branches: _, matched: matched, path: _, schema_path: _}, 7)
       when keyword in @branch_keywords do
    case matched do
      [] ->
        {": no branch matched", @max_line}

      [_, _ | _] ->
        {[": branches ", joined(items(matched, 8), ", ", &raw_text/1) | " matched"], @max_line}

      _other ->
        {[], @max_line}
    end
  end

  defp known_said(_keyword, _detail, _size), do: nil

  defp line_max(%{enum: enum}) when is_list(enum), do: @max_listing_line
  defp line_max(%{allowed: allowed}) when is_list(allowed), do: @max_listing_line
  defp line_max(_detail), do: @max_line

  # Where: the argument's pointer (`/a/0`, `(root)` for the whole value), or for an error of
  # the schema, `schema` and where in it.
  defp location(%{options: _}), do: "options"

  defp location(detail) do
    case pointer_of(detail) do
      nil ->
        case {Map.get(detail, :schema_path), Map.get(detail, :message)} do
          # The arguments as a whole (their JSON text, their shape at the tool boundary).
          {place, message} ->
            cond do
              Messages.said(message) == :whole_value -> "(root)"
              is_binary(place) and place != "" -> ["schema at " | printable_io(place)]
              true -> "schema"
            end
        end

      "" ->
        "(root)"

      pointer ->
        printable_io(pointer)
    end
  end

  @doc false
  # The RFC 6901 pointer of an argument error: the one it carries (the JSON modes), or one
  # read from its dotted path (the subset's; a key holding `.` or `[` reads ambiguously).
  def pointer_of(%{pointer: pointer}) when is_binary(pointer), do: pointer

  def pointer_of(%{path: path}) when is_binary(path) do
    rest =
      case path do
        "$arguments" <> rest -> rest
        "$result" <> rest -> rest
        "$" <> rest -> rest
        rest -> rest
      end

    rest |> dotted_tokens([]) |> IO.iodata_to_binary()
  end

  def pointer_of(_detail), do: nil

  # A dotted path's tokens, each as `/token`: `.name` (the name runs to the next `.` or `[`,
  # and may be empty) and `[digits]`; any other byte is passed over.
  defp dotted_tokens(<<".", rest::binary>>, acc) do
    size =
      case :binary.match(rest, [".", "["]) do
        {at, 1} -> at
        :nomatch -> byte_size(rest)
      end

    <<name::binary-size(size), after_name::binary>> = rest
    dotted_tokens(after_name, [acc, "/" | escape_token(name)])
  end

  defp dotted_tokens(<<"[", rest::binary>>, acc) do
    case digits(rest, 0) do
      0 ->
        dotted_tokens(rest, acc)

      size ->
        case rest do
          <<index::binary-size(size), "]", after_index::binary>> ->
            dotted_tokens(after_index, [acc, "/" | index])

          _ ->
            dotted_tokens(rest, acc)
        end
    end
  end

  defp dotted_tokens(<<_byte, rest::binary>>, acc), do: dotted_tokens(rest, acc)
  defp dotted_tokens(<<>>, acc), do: acc

  defp digits(<<digit, rest::binary>>, count) when digit in ?0..?9, do: digits(rest, count + 1)
  defp digits(_rest, count), do: count

  defp escape_token(name) do
    case :binary.match(name, ["~", "/"]) do
      :nomatch ->
        name

      _found ->
        name |> :binary.replace("~", "~0", [:global]) |> :binary.replace("/", "~1", [:global])
    end
  end

  # What was expected and what came, from the detail keys of the error.
  defp said(detail) do
    case {expected(detail), came(detail)} do
      {nil, nil} -> []
      {expected, nil} -> [": expected " | expected]
      {nil, came} -> [": " | came]
      {expected, came} -> [": expected ", expected, ", got " | came]
    end
  end

  # A failure with its reason says what it was asked for in `came/1`: nothing was expected.
  defp expected(%{reason: reason, format: _}) when not is_binary(reason), do: nil

  defp expected(detail) do
    case bound(detail) do
      nil -> expected_value(detail, Map.get(detail, :keyword))
      phrase -> phrase
    end
  end

  # The first bound of @bounds the detail holds, in that order.
  for {key, words, counted} <- @bounds do
    defp bound(%{unquote(key) => bound}),
      do: phrase(unquote(words), unquote(Macro.escape(counted)), bound)
  end

  defp bound(_detail), do: nil

  # What the keyword expected, from the first of these keys the detail holds, in this order.
  defp expected_value(%{enum: enum} = detail, _keyword) when is_list(enum),
    do: ["one of " | listing(enum, Map.get(detail, :unlisted))]

  # An anyOf/oneOf whose branches a tag property tells apart.
  defp expected_value(%{allowed: allowed} = detail, keyword)
       when keyword in @branch_keywords and is_list(allowed),
       do: [
         value(Map.get(detail, :property)),
         " to be one of " | listing(allowed, Map.get(detail, :unlisted))
       ]

  defp expected_value(%{const: const}, _keyword), do: value(const)
  defp expected_value(%{type: type}, keyword) when keyword != "false", do: type_words(type)

  defp expected_value(%{pattern: pattern}, _keyword) when is_binary(pattern),
    do: ["to match the pattern " | value(pattern)]

  defp expected_value(%{format: format}, _keyword) when is_binary(format),
    do: ["the format " | value(format)]

  defp expected_value(%{contentMediaType: type}, _keyword) when is_binary(type),
    do: ["the media type " | value(type)]

  defp expected_value(%{contentEncoding: encoding}, _keyword) when is_binary(encoding),
    do: ["the encoding " | value(encoding)]

  defp expected_value(_detail, _keyword), do: nil

  defp phrase(words, counted, bound, write \\ &value/1)
  defp phrase(words, nil, bound, write), do: [words, " " | write.(bound)]
  defp phrase(words, {one, _many}, 1, _write), do: [words, " 1 " | one]
  defp phrase(words, {_one, many}, bound, write), do: [words, " ", write.(bound), " " | many]

  defp came(%{option: option, reason: reason}) when is_binary(reason),
    do: [printable_io(inspect(option, limit: 8)), " " | printable_io(reason, @max_line)]

  # A loader's or a format function's failure: what it was asked for, then why it failed, for
  # the operator's log (a model never reads it: `tool_result/2` leaves it out).
  defp came(%{reference: reference, reason: reason}),
    do: ["reference ", value(reference), ", reason " | reason(reason)]

  defp came(%{format: format, reason: reason}),
    do: ["format ", value(format), ", reason " | reason(reason)]

  defp came(%{matched: [_, _ | _] = matched}),
    do: ["branches ", joined(items(matched, 8), ", ", &text/1) | " matched"]

  defp came(%{matched: []}), do: "no branch matched"

  defp came(%{keyword: keyword, property: property})
       when keyword in @required_keywords,
       do: ["missing " | value(property)]

  # The subset's missing property, which names no keyword: its message says so.
  defp came(%{message: message, property: property} = detail)
       when not is_map_key(detail, :keyword) do
    case Messages.said(message) do
      :missing -> ["missing " | value(property)]
      _other -> came_otherwise(detail)
    end
  end

  defp came(detail), do: came_otherwise(detail)

  # A tag that matches no branch: the tag given, when it is listed (none when it is missing).
  defp came_otherwise(%{keyword: keyword, allowed: allowed} = detail)
       when keyword in @branch_keywords and is_list(allowed) do
    case detail do
      %{actual: actual} -> value(actual)
      _no_tag -> nil
    end
  end

  defp came_otherwise(%{property: property, allowed: allowed} = detail) when is_list(allowed),
    do: [value(property), " (", allowed_properties(detail) | ")"]

  defp came_otherwise(%{property: property}), do: value(property)
  defp came_otherwise(%{keyword: @type_keyword, actual: actual}), do: text(actual)
  defp came_otherwise(%{actual: actual}), do: value(actual)

  defp came_otherwise(%{keywords: keywords}) when is_list(keywords),
    do: joined(items(keywords, 8), ", ", &value/1)

  defp came_otherwise(%{keyword: _, path: _}), do: nil
  defp came_otherwise(%{keyword: keyword}), do: ["keyword " | value(keyword)]
  defp came_otherwise(%{reference: reference}), do: ["reference " | value(reference)]
  defp came_otherwise(%{offset: offset}), do: ["at byte " | value(offset)]
  defp came_otherwise(_detail), do: nil

  # Each item written by `write`, with `separator` between them.
  defp joined([], _separator, _write), do: []
  defp joined([item], _separator, write), do: [write.(item)]

  defp joined([item | rest], separator, write),
    do: [write.(item), separator | joined(rest, separator, write)]

  # Listed values, and how many more there are.
  defp listing(values, unlisted, write \\ &value/1) do
    listed = joined(items(values, 64), ", ", write)

    case unlisted do
      count when is_integer(count) and count > 0 ->
        [listed, " and ", Integer.to_string(count) | " more"]

      _ ->
        listed
    end
  end

  defp allowed_properties(%{allowed: [], allowed_patterns: [_ | _] = patterns} = d),
    do: ["allowed: names matching " | listing(patterns, Map.get(d, :unlisted_patterns))]

  defp allowed_properties(
         %{allowed: [_ | _] = allowed, allowed_patterns: [_ | _] = patterns} = d
       ),
       do: [
         "allowed: ",
         listing(allowed, Map.get(d, :unlisted)),
         ", or names matching " | listing(patterns, Map.get(d, :unlisted_patterns))
       ]

  defp allowed_properties(%{allowed: [_ | _] = allowed} = detail),
    do: ["allowed: " | listing(allowed, Map.get(detail, :unlisted))]

  defp allowed_properties(_detail), do: "no property is allowed here"

  defp type_words(types, write \\ &text/1)
  defp type_words(types, write) when is_list(types), do: joined(items(types, 8), " or ", write)
  defp type_words(type, write), do: write.(type)

  # A value as the text shows it: numbers and names plainly, strings quoted, each bounded and
  # with control characters and stray bytes escaped.
  defp value(value) when is_binary(value), do: [?", printable_io(value) | "\""]
  defp value(value) when is_integer(value), do: Integer.to_string(value)
  defp value(value) when is_float(value), do: Float.to_string(value)
  defp value(value) when is_boolean(value), do: Atom.to_string(value)
  defp value(nil), do: "null"
  defp value(value) when is_atom(value), do: value(Atom.to_string(value))

  # A term the text cannot know (a list, a map, a tuple): its Elixir form, bounded.
  defp value(value),
    do: value |> inspect(limit: 8, printable_limit: @max_value) |> printable_io()

  # A failure's reason, longer than a value may be: the line's own bound still holds.
  @max_reason 200
  defp reason(reason),
    do: reason |> inspect(limit: 16, printable_limit: @max_reason) |> printable_io(@max_reason)

  # `text/1` as one binary, for a JSON string.
  defp text_binary(value), do: value |> text() |> IO.iodata_to_binary()

  # An answer's class as a JSON string.
  for class <- [:validation, :unsupported_capability, :execution_failure] do
    defp class_text(unquote(class)), do: unquote(Atom.to_string(class))
  end

  defp class_text(class), do: class |> text_binary() |> json_string()

  defp text(value) when is_binary(value), do: printable_io(value)
  defp text(nil), do: ""
  defp text(value) when is_atom(value), do: Atom.to_string(value)
  defp text(value) when is_integer(value), do: Integer.to_string(value)
  defp text(value), do: value(value)

  @doc false
  # `binary` with its control characters and invalid bytes escaped, cut at @max_value
  # characters (an ellipsis marks the cut).
  def printable(binary, max \\ @max_value) do
    case printable_io(binary, max) do
      same when is_binary(same) -> same
      iodata -> IO.iodata_to_binary(iodata)
    end
  end

  # `printable/2` as iodata: runs of characters kept as they are stay slices of `binary`
  # (the binary itself when nothing is escaped or cut).
  defp printable_io(binary, max \\ @max_value), do: escape(binary, binary, 0, 0, max, [])

  # `skip`: where the run being kept starts in `original`; `size`: its bytes so far; `left`:
  # how many more characters may be kept.
  defp escape(<<>>, original, 0, _size, _left, []), do: original

  defp escape(<<>>, original, skip, size, _left, acc),
    do: [acc | binary_part(original, skip, size)]

  defp escape(_rest, original, skip, size, 0, acc),
    do: [acc, binary_part(original, skip, size) | "…"]

  # Most text is printable ASCII: eight or four such bytes are passed over in one step.
  defp escape(<<high::32, low::32, rest::binary>>, original, skip, size, left, acc)
       when left >= 8 and is_printable_ascii(high) and is_printable_ascii(low),
       do: escape(rest, original, skip, size + 8, left - 8, acc)

  defp escape(<<word::32, rest::binary>>, original, skip, size, left, acc)
       when left >= 4 and is_printable_ascii(word),
       do: escape(rest, original, skip, size + 4, left - 4, acc)

  defp escape(<<byte, rest::binary>>, original, skip, size, left, acc)
       when byte >= 0x20 and byte < 0x7F,
       do: escape(rest, original, skip, size + 1, left - 1, acc)

  defp escape(<<char::utf8, rest::binary>>, original, skip, size, left, acc) do
    if char < 0x20 or char == 0x7F or char in 0x80..0x9F or char in [0x2028, 0x2029] do
      escaped = ["\\u" | hex(char, 4)]
      kept = binary_part(original, skip, size)
      escape(rest, original, skip + size + utf8_size(char), 0, left - 1, [acc, kept | escaped])
    else
      escape(rest, original, skip, size + utf8_size(char), left - 1, acc)
    end
  end

  defp escape(<<byte, rest::binary>>, original, skip, size, left, acc) do
    kept = binary_part(original, skip, size)
    escape(rest, original, skip + size + 1, 0, left - 1, [acc, kept, "\\x" | hex(byte, 2)])
  end

  # Upper-case hex digits, padded with zeros to `width`.
  defp hex(integer, width), do: String.pad_leading(Integer.to_string(integer, 16), width, "0")

  defp utf8_size(char) when char < 0x80, do: 1
  defp utf8_size(char) when char < 0x800, do: 2
  defp utf8_size(char) when char < 0x10000, do: 3
  defp utf8_size(_char), do: 4

  # A line is already printable; only its length is bounded. A line of no more bytes than
  # `max` holds no more characters than that, and is kept without counting them.
  defp bounded(line, max) do
    if IO.iodata_length(line) <= max do
      line
    else
      line = IO.iodata_to_binary(line)
      if String.length(line) > max, do: String.slice(line, 0, max) <> "…", else: line
    end
  end

  # ---------------------------------------------------------------------------------------
  # tool_result
  # ---------------------------------------------------------------------------------------

  @doc false
  def tool_result(answer, options),
    do: result_of(answer, output_role?(options))

  # A success refuses nothing: there is no result to send in the tool's place.
  defp result_of({:ok, _value}, _output?), do: nil
  # A call valid once repaired (`repair: true`) is a success too.
  defp result_of({:ok, _value, _repaired}, _output?), do: nil
  defp result_of(:ok, _output?), do: nil

  defp result_of({:error, class, detail} = answer, output?) when is_detail(detail) do
    role = if output?, do: :output, else: role_of(detail)

    cond do
      operator_problem?(class, detail) ->
        unchecked(class, role)

      class == :validation and argument_error?(detail) and role == :output ->
        rendered(answer, "The tool's result does not match its output schema:\n")

      class == :validation and argument_error?(detail) ->
        rendered(
          answer,
          "The tool call's arguments are invalid; correct them and call the tool again:\n"
        )

      role == :output ->
        rendered(answer, "The tool's result could not be checked against its output schema:\n")

      true ->
        rendered(answer, "The tool call could not be checked (the tool was not run):\n")
    end
  end

  defp result_of(_answer, _output?), do: unchecked(:execution_failure, :input)

  @doc false
  # A result check's refusal, from `InputSchema.Tools.check_result/4`: its heading says that
  # the tool has run, so that the model does not call it again only to retry.
  def ran_result({:error, _class, _detail} = answer) do
    rendered(
      answer,
      "The tool has already run (whatever it does has been done), but its result does not " <>
        "match its output schema:\n"
    )
  end

  @doc false
  # A refused call of `InputSchema.Tools.check_call/3` that is about the call itself (its tool,
  # its params), with its own text: the error's detail map, in the usual structured content.
  def call_rejection(detail, text) do
    %{
      "isError" => true,
      "content" => [%{"type" => "text", "text" => text}],
      "structuredContent" => %{
        "class" => "validation",
        "errors" => [detail |> json_detail(@max_structured_bytes) |> elem(0)],
        "errorCount" => 1
      }
    }
  end

  @doc false
  # What a model reads of an operator's problem: that the call, or the result, could not be
  # checked, and nothing of why (a loader's reason, a raised exception, the options), which
  # is for the log (`format_error/2`). `:call`, `:result`: as `InputSchema.Tools` says them.
  def unchecked(class, :input) do
    text = "The tool call could not be checked (the tool was not run)."
    unchecked_result(class, text)
  end

  def unchecked(class, :output) do
    text = "The tool's result could not be checked against its output schema."
    unchecked_result(class, text)
  end

  def unchecked(class, :call), do: unchecked(class, :input)

  def unchecked(class, :result) do
    text =
      "The tool has already run (whatever it does has been done), but its result could not " <>
        "be checked against its output schema."

    unchecked_result(class, text)
  end

  defp unchecked_result(class, text) do
    %{
      "isError" => true,
      "content" => [%{"type" => "text", "text" => text}],
      "structuredContent" => %{
        "class" => class_text(class),
        "errors" => [],
        "errorCount" => 0
      }
    }
  end

  # `heading` ends its line.
  defp rendered({:error, class, detail} = answer, heading) do
    {errors, left} = errors_of(detail, @max_structured_errors)
    {json_errors, _budget} = Enum.map_reduce(errors, @max_structured_bytes, &json_detail/2)

    # Each map is made at once, its keys all given: a constant value in it (`true`, `"text"`)
    # would have the compiler make it a literal map, then add the other keys one by one.
    %{
      "isError" => error_flag(),
      "content" => [%{"type" => text_type(), "text" => text_of(answer, heading)}],
      "structuredContent" => %{
        "class" => class_text(class),
        "errors" => json_errors,
        "errorCount" => length(errors) + left
      }
    }
  end

  defp error_flag, do: true
  defp text_type, do: "text"

  # A problem of the operator's: a loader or a format function failed, the options were
  # refused, a compiled schema was forged. Its internals are for the log, never for the model.
  defp operator_problem?(:execution_failure, _detail), do: true
  # Every refusal of the options carries them (`options:`).
  defp operator_problem?(_class, %{options: _}), do: true
  # An error with a path is about the value checked, never the operator's.
  defp operator_problem?(_class, %{message: message} = detail) when not is_map_key(detail, :path),
    do: Messages.said(message) == :operator

  defp operator_problem?(_class, _detail), do: false

  @doc false
  # Whether an answer's error is about the value checked (an argument or a result), not the
  # schema, the options or a loader.
  def argument_error?(%{path: path}) when is_binary(path), do: true
  def argument_error?(%{message: message}), do: Messages.said(message) == :whole_value
  def argument_error?(_detail), do: false

  # Whether an answer is a result check's: `role: :output` says so in its detail.
  defp role_of(%{role: :output}), do: :output
  defp role_of(_detail), do: :input

  # A detail map as JSON-encodable data, within `budget` bytes in all (what is left of it
  # comes back): string keys, strings of valid UTF-8 (a stray byte becomes U+FFFD) no longer
  # than @max_string bytes, other terms written as text; once the budget is spent, a value is
  # `"…"` and a list or map holds no more.
  defp json_detail(detail, budget), do: json_value(detail, 4, budget)

  # A detail of a shape the NIF gives most (a wrong type, a missing property, a bound; a branch
  # error's too, which carries its branch), whose strings are valid UTF-8 no longer than a JSON
  # string may be and whose numbers are small: its JSON map made at once, and what it costs of
  # the budget as `json_value/3` counts it, where the budget cannot run out within it. `nil`
  # for any other.
  @known_json_budget 8 * 1024
  @small_integer Bitwise.bsl(1, 59)

  # A float, or an integer whose size in the budget's count is small.
  defguardp is_small_number(number)
            when is_float(number) or
                   (is_integer(number) and number > -@small_integer and number < @small_integer)

  # The shapes whose JSON map is made at once: each keyword, and its own keys, each a string or
  # a number (beside its message, path, pointer and schema path, all strings).
  @known_json_shapes [
                       {@type_keyword, type: :string, actual: :string},
                       {@required_keyword, property: :string}
                     ] ++
                       for(
                         {key, _words, _counted} <- @bounds,
                         do: {Atom.to_string(key), [{key, :number}, actual: :number]}
                       )

  defp known_json(%{branch: branch} = detail, budget)
       when is_small_number(branch) and budget > @known_json_budget do
    case known_json(Map.delete(detail, :branch), budget) do
      nil -> nil
      {json, budget} -> {Map.put(json, "branch", branch), budget - 9 - number_cost(branch)}
    end
  end

  for {keyword, own} <- @known_json_shapes do
    keys = [:message, :path, :pointer, :schema_path | Keyword.keys(own)]
    var = &Macro.var(&1, nil)
    strings = for key <- keys, Keyword.get(own, key, :string) == :string, do: var.(key)
    numbers = for {key, :number} <- own, do: var.(key)
    texts = ["keyword" | Enum.map(keys, &Atom.to_string/1)]

    small_numbers =
      Enum.reduce(numbers, true, fn number, guard ->
        quote(do: unquote(guard) and is_small_number(unquote(number)))
      end)

    numbers_cost =
      Enum.reduce(numbers, 0, fn number, sum ->
        quote(do: unquote(sum) + number_cost(unquote(number)))
      end)

    # What its map, its keys and its keyword's string cost of the budget.
    fixed_cost = 2 + Enum.reduce(texts, 0, &(byte_size(&1) + 3 + &2)) + byte_size(keyword) + 2

    defp known_json(
           %{unquote_splicing([{:keyword, keyword} | Enum.map(keys, &{&1, var.(&1)})])} = detail,
           budget
         )
         when map_size(detail) == unquote(length(keys) + 1) and budget > @known_json_budget and
                unquote(small_numbers) do
      with {:ok, cost} <- strings_cost(unquote(strings)) do
        json = %{
          unquote_splicing([
            {"keyword", keyword} | Enum.map(keys, &{Atom.to_string(&1), var.(&1)})
          ])
        }

        {json, budget - unquote(fixed_cost) - cost - unquote(numbers_cost)}
      end
    end
  end

  defp known_json(_detail, _budget), do: nil

  # What strings cost of the budget, each as `json_value/3` counts it, where every one is a
  # binary of valid UTF-8 no longer than a JSON string may be: `json_string/1` keeps each as
  # it is. Their bytes are checked in one pass, a NUL between two, which ends any character.
  defp strings_cost(strings), do: strings_cost(strings, 0, [])

  defp strings_cost([string | rest], cost, joined)
       when is_binary(string) and byte_size(string) <= @max_string,
       do: strings_cost(rest, cost + byte_size(string) + 2, [joined, 0 | string])

  defp strings_cost([], cost, joined) do
    if utf8?(IO.iodata_to_binary(joined)), do: {:ok, cost}, else: nil
  end

  defp strings_cost(_strings, _cost, _joined), do: nil

  defp number_cost(integer) when is_integer(integer), do: 8 + div(bit_size_of(integer), 3)
  defp number_cost(_float), do: 8

  defp json_value(_value, _depth, budget) when budget <= 0, do: {"…", 0}

  defp json_value(value, _depth, budget) when is_binary(value) do
    string = json_string(value)
    {string, budget - byte_size(string) - 2}
  end

  defp json_value(value, _depth, budget) when is_integer(value),
    do: {value, budget - 8 - div(bit_size_of(value), 3)}

  defp json_value(value, _depth, budget)
       when is_number(value) or is_boolean(value) or is_nil(value),
       do: {value, budget - 8}

  defp json_value(value, depth, budget) when is_atom(value),
    do: json_value(Atom.to_string(value), depth, budget)

  defp json_value(list, depth, budget) when is_list(list) and depth > 0 do
    if proper_list?(list, @max_structured_errors) do
      list |> items(@max_structured_errors) |> json_items(depth - 1, budget - 2, [])
    else
      json_value(inspect(list, limit: 16), depth, budget)
    end
  end

  defp json_value(map, depth, budget) when is_map(map) and not is_struct(map) and depth > 0 do
    case known_json(map, budget) do
      nil ->
        pairs =
          if map_size(map) <= @max_structured_errors,
            do: :maps.to_list(map),
            else: Enum.take(map, @max_structured_errors)

        {pairs, budget} = json_pairs(pairs, depth - 1, budget - 2, [])
        {json_map(pairs), budget}

      known ->
        known
    end
  end

  defp json_value(other, depth, budget),
    do: json_value(inspect(other, limit: 16, printable_limit: @max_string), depth, budget)

  # The map of pairs gathered last first, where of two pairs whose keys read as one text the
  # first wins. Put back in key order (atom keys, as text, keep it), they reach `from_list`
  # sorted, its cheapest case; where two keys met, they go as gathered.
  defp json_map(last_first) do
    pairs = :lists.reverse(last_first)
    map = :maps.from_list(pairs)
    if map_size(map) == length(pairs), do: map, else: :maps.from_list(last_first)
  end

  defp json_items([], _depth, budget, acc), do: {Enum.reverse(acc), budget}
  defp json_items(_items, _depth, budget, acc) when budget <= 0, do: {Enum.reverse(acc), 0}

  defp json_items([item | rest], depth, budget, acc) do
    {json, budget} = json_value(item, depth, budget)
    json_items(rest, depth, budget, [json | acc])
  end

  defp json_pairs([], _depth, budget, acc), do: {acc, budget}
  defp json_pairs(_pairs, _depth, budget, acc) when budget <= 0, do: {acc, 0}

  defp json_pairs([{key, value} | rest], depth, budget, acc) do
    # An atom's text is UTF-8, and shorter than a string may be.
    key =
      cond do
        is_atom(key) -> key_text(key)
        is_binary(key) -> json_string(text_binary(key))
        true -> json_string(inspect(key, limit: 8))
      end

    {json, budget} = json_value(value, depth, budget - byte_size(key) - 3)
    json_pairs(rest, depth, budget, [{key, json} | acc])
  end

  # The detail keys the NIF writes, as literal binaries: made once, not at each error.
  for key <- ~w(message path pointer keyword schema_path evaluation_path property actual type
               minimum maximum enum const allowed unlisted allowed_patterns unlisted_patterns
               matched branch branches role)a do
    defp key_text(unquote(key)), do: unquote(Atom.to_string(key))
  end

  defp key_text(key), do: text(key)

  # An integer's size in bits, read without writing its digits.
  defp bit_size_of(integer), do: integer |> abs() |> :binary.encode_unsigned() |> bit_size()

  # Whether a list is proper, looking no further than `count` cells: a longer one is proper
  # enough to show its first ones.
  defp proper_list?([], _count), do: true
  defp proper_list?(_list, 0), do: true
  defp proper_list?([_ | tail], count), do: proper_list?(tail, count - 1)
  defp proper_list?(_improper, _count), do: false

  @doc false
  def json_string(binary) do
    binary =
      if byte_size(binary) > @max_string, do: binary_part(binary, 0, @max_string), else: binary

    if utf8?(binary), do: binary, else: valid_utf8(binary, [])
  end

  # `String.valid?/1`, eight or four ASCII bytes at a time.
  defp utf8?(<<high::32, low::32, rest::binary>>) when is_ascii(high) and is_ascii(low),
    do: utf8?(rest)

  defp utf8?(<<word::32, rest::binary>>) when is_ascii(word), do: utf8?(rest)
  defp utf8?(<<_char::utf8, rest::binary>>), do: utf8?(rest)
  defp utf8?(<<>>), do: true
  defp utf8?(_invalid), do: false

  defp valid_utf8(<<>>, acc), do: acc |> Enum.reverse() |> IO.iodata_to_binary()
  defp valid_utf8(<<char::utf8, rest::binary>>, acc), do: valid_utf8(rest, [<<char::utf8>> | acc])
  defp valid_utf8(<<_byte, rest::binary>>, acc), do: valid_utf8(rest, ["\uFFFD" | acc])

  # ---------------------------------------------------------------------------------------
  # basic_output
  # ---------------------------------------------------------------------------------------

  @doc false
  def basic_output({:error, _class, detail}) when is_detail(detail) do
    # The detail maps of `errors: :all`, or its one, as `errors_of/2` reads them.
    errors =
      case detail_maps(detail[:errors], 1) do
        {[], 0} -> [detail]
        _some -> detail[:errors]
      end

    {units, left} = units(errors, @max_units, [], 0)

    more =
      if left > 0,
        do: [
          %{"keywordLocation" => "", "instanceLocation" => "", "error" => "(#{left} more errors)"}
        ],
        else: []

    %{"valid" => false, "errors" => units ++ more}
  end

  def basic_output({:ok, _}), do: %{"valid" => true}
  def basic_output({:ok, _value, _repaired}), do: %{"valid" => true}
  def basic_output(:ok), do: %{"valid" => true}
  def basic_output(_answer), do: %{"valid" => false, "errors" => [unit(%{})]}

  # The first `count` units of the errors (the detail maps of a list, up to its end or an
  # improper tail), each error's unit then its branches' (each branch's first error), and how
  # many more there are, counted without being made.
  defp units([detail | rest], count, acc, left) when is_detail(detail) do
    {branches, more} = detail_maps(detail[:branches], max(count - 1, 0))

    case count do
      0 ->
        units(rest, 0, acc, left + 1 + length(branches) + more)

      count ->
        branch_units = Enum.map(branches, &unit/1)
        acc = Enum.reverse(branch_units, [unit(detail) | acc])
        units(rest, count - 1 - length(branches), acc, left + more)
    end
  end

  defp units([_other | rest], count, acc, left), do: units(rest, count, acc, left)
  defp units(_end, _count, acc, left), do: {Enum.reverse(acc), left}

  # `keywordLocation` is the evaluation path, through each reference the walk crossed (the
  # schema path where it crossed none). No `absoluteKeywordLocation`: an error does not carry
  # the URI of the document its keyword is in (see docs/readings.md).
  defp unit(detail) do
    # The subset's `locate: true` places are no pointers: they are left out.
    keyword_location =
      case {detail[:evaluation_path], detail[:schema_path]} do
        {"/" <> _ = pointer, _} -> pointer
        {_, "/" <> _ = pointer} -> pointer
        _ -> ""
      end

    %{
      "keywordLocation" => json_string(keyword_location),
      "instanceLocation" => json_string(pointer_of(detail) || ""),
      "error" =>
        json_string(if is_binary(detail[:message]), do: detail[:message], else: "invalid answer")
    }
  end
end
