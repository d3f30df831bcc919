defmodule InputSchema.JsonSchemaKeywords do
  @moduledoc false
  # Every keyword of the JSON Schema dialects, for the tests that spell schemas with atom keys
  # or build them at random.

  @keywords ~w($ref $dynamicRef $recursiveRef $defs definitions $id id $schema $anchor
    $dynamicAnchor $recursiveAnchor $vocabulary
    $comment type enum const multipleOf minimum exclusiveMinimum maximum exclusiveMaximum minLength
    maxLength pattern format contentEncoding contentMediaType contentSchema minItems maxItems
    uniqueItems prefixItems items additionalItems contains minContains maxContains required
    dependentRequired minProperties maxProperties propertyNames additionalProperties properties
    patternProperties dependentSchemas dependencies allOf anyOf oneOf not if then else
    unevaluatedItems unevaluatedProperties title description default deprecated readOnly
    writeOnly examples)

  def all, do: @keywords
end
