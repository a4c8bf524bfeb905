import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The macros the compiler runs for Guesswork's modules (it declares them in `GuessworkCore`).
@main
struct GuessworkMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [WireUnionMacro.self]
}
