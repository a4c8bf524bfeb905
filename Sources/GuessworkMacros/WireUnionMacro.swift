import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@WireUnion("Number action type")` on an enum writes its wire format: a flat JSON object
/// told apart by `"type"`, the case's name, with one member a value, named by its label
/// (`case won(secret: Int, score: Int)` is `{"type":"won","secret":42,"score":70}`) or by its
/// inner name when the case is called without one (`case guess(_ number: Int)` is
/// `{"type":"guess","number":42}`). An optional value is left out when it is `nil`.
///
/// It adds `WireUnion` (the tags and the name decoding errors use), `Codable`, and the same
/// JSON written straight to text (`JSONTextWritable`), so a game's actions and events say
/// nothing of their wire format but their cases.
public struct WireUnionMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let union = declaration.as(EnumDeclSyntax.self) else {
      throw problem(node, "@WireUnion makes the wire format of an enum")
    }
    guard let name = node.arguments?.as(LabeledExprListSyntax.self)?.first?.expression else {
      throw problem(
        node, #"@WireUnion needs what a person calls the value: @WireUnion("Number action type")"#)
    }
    let cases = try WireCase.all(in: union)
    let isPublic = union.modifiers.contains { $0.name.tokenKind == .keyword(.public) }
    let access = isPublic ? "public " : ""
    let conformances = protocols.map(\.trimmedDescription)
    let inheritance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")

    var keys: [String] = []
    for field in cases.flatMap(\.fields) where !keys.contains(field.key) { keys.append(field.key) }

    let declarations: [String] = [
      "\(access)static let wireTags = [\(cases.map { "\"\($0.tag)\"" }.joined(separator: ", "))]",
      "\(access)static let wireName = \(name.trimmedDescription)",
      "private enum CodingKeys: String, CodingKey { case \((["type"] + keys).joined(separator: ", ")) }",
      decoder(cases, access: access, readsFields: !keys.isEmpty),
      encoder(cases, access: access),
      writer(cases, access: access),
    ]
    let source = """
      extension \(type.trimmedDescription)\(inheritance) {
      \(declarations.joined(separator: "\n\n"))
      }
      """
    return [try ExtensionDeclSyntax("\(raw: source)")]
  }

  static func decoder(_ cases: [WireCase], access: String, readsFields: Bool) -> String {
    var lines = ["\(access)init(from decoder: any Decoder) throws {"]
    lines.append("let tag = try Self.wireTag(from: decoder)")
    if readsFields {
      lines.append("let container = try decoder.container(keyedBy: CodingKeys.self)")
    }
    lines.append("switch tag {")
    for wireCase in cases {
      let arguments = wireCase.fields.map { field in
        // The value's type is the case's, inferred: a type named here would be looked up
        // outside the enum's own scope.
        let read = field.isOptional ? "wireValueIfPresent" : "wireValue"
        let value = "try container.\(read)(.\(field.key))"
        return field.label.map { "\($0): \(value)" } ?? value
      }
      let made = arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"
      lines.append("case \"\(wireCase.tag)\": self = .\(wireCase.tag)\(made)")
    }
    lines.append("default: throw Self.unreadTag(tag)")
    lines.append("}")
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  static func encoder(_ cases: [WireCase], access: String) -> String {
    var lines = ["\(access)func encode(to encoder: any Encoder) throws {"]
    lines.append("var container = encoder.container(keyedBy: CodingKeys.self)")
    lines.append("switch self {")
    for wireCase in cases {
      lines.append("case \(wireCase.pattern):")
      lines.append("try container.encode(\"\(wireCase.tag)\", forKey: .type)")
      for field in wireCase.fields {
        let write = field.isOptional ? "encodeIfPresent" : "encode"
        lines.append("try container.\(write)(\(field.key), forKey: .\(field.key))")
      }
    }
    lines.append("}")
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The same JSON as `encode(to:)`, written as text: the constant parts as they are.
  static func writer(_ cases: [WireCase], access: String) -> String {
    var lines = ["\(access)func writeJSON(to text: JSONText) throws {"]
    lines.append("switch self {")
    for wireCase in cases {
      lines.append("case \(wireCase.pattern):")
      var pending = #"{"type":"\#(wireCase.tag)""#
      for field in wireCase.fields {
        let member = #","\#(field.key)":"#
        if field.isOptional {
          if !pending.isEmpty { lines.append("text.writeJSON(raw: #\"\(pending)\"#)") }
          lines.append("if let \(field.key) {")
          lines.append("text.writeJSON(raw: #\"\(member)\"#)")
          lines.append("try text.writeJSON(field: \(field.key))")
          lines.append("}")
        } else {
          lines.append("text.writeJSON(raw: #\"\(pending + member)\"#)")
          lines.append("try text.writeJSON(field: \(field.key))")
        }
        pending = ""
      }
      lines.append("text.writeJSON(raw: #\"\(pending)}\"#)")
    }
    lines.append("}")
    lines.append("}")
    return lines.joined(separator: "\n")
  }
}

/// A case of the enum as it travels.
struct WireCase {
  struct Field {
    /// The argument label the case is made with; `nil` for `_`.
    var label: String?
    /// Its JSON member's name, and the name it is bound to in a pattern.
    var key: String
    var isOptional: Bool
  }

  var tag: String
  var fields: [Field]

  /// `.won(let secret, let score)`.
  var pattern: String {
    fields.isEmpty
      ? ".\(tag)" : ".\(tag)(\(fields.map { "let \($0.key)" }.joined(separator: ", ")))"
  }

  static func all(in union: EnumDeclSyntax) throws -> [WireCase] {
    var cases: [WireCase] = []
    for member in union.memberBlock.members {
      guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in declaration.elements {
        var fields: [Field] = []
        for parameter in element.parameterClause?.parameters ?? [] {
          let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
          guard let key = parameter.secondName?.text ?? label else {
            throw problem(
              parameter,
              "Name this value: its name is its JSON member (`_ number: Int` keeps calls unlabelled)"
            )
          }
          guard key != "type" else {
            throw problem(
              parameter, #"A value cannot be called "type": that member tells the cases apart"#)
          }
          let isOptional = parameter.type.is(OptionalTypeSyntax.self)
          fields.append(Field(label: label, key: key, isOptional: isOptional))
        }
        cases.append(WireCase(tag: element.name.text, fields: fields))
      }
    }
    guard !cases.isEmpty else { throw problem(union.name, "A wire union needs at least one case") }
    return cases
  }
}

/// An error the compiler shows on the code it is about.
struct WireUnionMessage: DiagnosticMessage {
  let message: String
  var diagnosticID: MessageID { MessageID(domain: "GuessworkMacros", id: "WireUnion") }
  var severity: DiagnosticSeverity { .error }
}

func problem(_ node: some SyntaxProtocol, _ message: String) -> DiagnosticsError {
  DiagnosticsError(diagnostics: [
    Diagnostic(node: Syntax(node), message: WireUnionMessage(message: message))
  ])
}
