"""The torch.where / torch.cond rewrites of BL101 and BL102 as one LibCST transform.

What to rewrite is decided on the stdlib `ast` (fix/branch.py, fix/cond.py) and travels as plain
data, a spec per fix (kept in the results cache, sent across the worker pool):

- ("stmt", first_row, last_row, head, target, args): the `if` statement starting on `first_row`,
  and the sibling that starts on `last_row` when it differs (`if c: return a` + `return b`), become
  `target = torch.where(*args)` (head "assign") or `return torch.where(*args)` (head "return");
- ("expr", row, column, args): the conditional expression starting there (0-based column in
  characters) becomes `torch.where(*args)`;
- ("cond", row, cond, operands, outputs, true_fn, false_fn, true_results, false_results): the
  `if`/`else` starting on `row` becomes two local functions whose bodies are the branches' own
  statements, and `outputs = torch.cond(cond, true_fn, false_fn, (operands,))`.

The arguments are expression texts that the ast analysis rewrote (a condition with `&` for `and`, a
guarded divisor); LibCST parses them and builds the new statements around them. Everything else is
LibCST's: the statements kept in a torch.cond branch are the branch's own nodes, byte for byte;
comments in removed code move above the new code, in order; a layout that would pass 88 columns is
wrapped one argument a line, as black writes it. LibCST's scope metadata checks that the name the fix
calls torch by means the module's torch where the rewrite lands (a local `torch = ...` shadows it).
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import libcst as cst
from libcst.metadata import PositionProvider, ScopeProvider

from .branch import minus
from .cst import scope_means_torch

MAX_LINE = 88  # ruff and black default line length: a fix must not add E501


class _Comments(cst.CSTVisitor):
    """Every comment under a node, in source order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def visit_Comment(self, node: cst.Comment) -> None:
        self.found.append(node.value)


def _comments(*nodes: cst.CSTNode) -> list[str]:
    visitor = _Comments()
    for node in nodes:
        node.visit(visitor)
    return visitor.found




def _comment_lines(comments: list[str]) -> list[cst.EmptyLine]:
    return [cst.EmptyLine(indent=True, comment=cst.Comment(c)) for c in comments]


def expression_node(text: str) -> Optional[cst.BaseExpression]:
    """An argument text as a node. Parsed inside parentheses, so that a multi-line operand cut from
    inside the original's brackets parses; those parentheses are dropped again, since the new call's
    own brackets hold it."""
    try:
        node = cst.parse_expression(f"({text})")
    except Exception:  # ParserSyntaxError
        return None
    node = node.with_changes(lpar=node.lpar[1:], rpar=node.rpar[:-1])
    return node.visit(_AbsoluteIndents())


class _AbsoluteIndents(cst.CSTTransformer):
    """A text parsed alone has no enclosing block, so LibCST reads the whitespace of its continuation
    lines as "block indentation + rest": rendered inside a block, the block's indentation would be
    added twice. Marked absolute, each line keeps exactly the whitespace it was written with."""

    def leave_ParenthesizedWhitespace(self, original, updated):
        return updated.with_changes(indent=False)

    def leave_EmptyLine(self, original, updated):
        return updated.with_changes(indent=False)


def _newline_then(extra: str) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets, the next line at the block's indentation plus `extra`."""
    return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(extra))


def _comma_list(values: list[cst.BaseExpression]) -> list[cst.Arg]:
    return [cst.Arg(value=v, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(values) - 1
                    else cst.MaybeSentinel.DEFAULT) for i, v in enumerate(values)]


class _WhereCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "where":
            self.calls.append(node)


class _BreakInside(cst.CSTTransformer):
    """Break the line after the `(` of one call."""

    def __init__(self, target: cst.Call, extra: str) -> None:
        super().__init__()
        self.target, self.extra = target, extra

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if original is self.target:
            return updated.with_changes(whitespace_before_args=_newline_then(self.extra))
        return updated


class _BranchRewrite(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, rows: frozenset, torch_name: str, add_import: bool, specs: Sequence[tuple]):
        super().__init__()
        self.torch_name = torch_name
        self.add_import = add_import
        self.statements = {spec[1]: spec for spec in specs if spec[0] in ("stmt", "cond")}
        self.expressions = {(spec[1], spec[2]): spec for spec in specs if spec[0] == "expr"}
        self.done_specs: set[tuple] = set()
        # (spec, start, end) of each rewrite, to undo the count of one that an outer rewrite replaced
        self._placed: list[tuple[tuple, tuple, tuple]] = []
        self._module: Optional[cst.Module] = None
        self._indents: list[str] = []
        self._targets: list[int] = []
        self._pending: list[str] = []  # comments of a rewritten expression, for its statement

    # -- where the rewrite lands -------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self._module = node
        self._targets = sorted({spec[1] for spec in self.statements.values()}
                               | {row for row, _ in self.expressions})

    def on_visit(self, node: cst.CSTNode) -> bool:
        # A def, class or block with no rewrite inside is not walked: most of a file is untouched.
        if isinstance(node, cst.BaseCompoundStatement) and not isinstance(node, cst.If):
            where = self.get_metadata(PositionProvider, node)
            if not any(where.start.line <= row <= where.end.line for row in self._targets):
                return False
        return super().on_visit(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._indents.append(self._module.default_indent if node.indent is None else node.indent)

    def _indent(self) -> str:
        return "".join(self._indents)

    def _range(self, node: cst.CSTNode) -> tuple[tuple, tuple]:
        where = self.get_metadata(PositionProvider, node)
        return (where.start.line, where.start.column), (where.end.line, where.end.column)

    def _means_torch(self, node: cst.CSTNode) -> bool:
        raise NotImplementedError

    def _place(self, spec: tuple, start: tuple, end: tuple, replaces_text: bool) -> None:
        """Count `spec` as done; a rewrite built from the original text drops those inside it."""
        if replaces_text:
            inside = [p for p in self._placed if start <= p[1] and p[2] <= end]
            for placed in inside:
                self._placed.remove(placed)
                self.done_specs.discard(placed[0])
        self._placed.append((spec, start, end))
        self.done_specs.add(spec)

    def _torch(self) -> cst.BaseExpression:
        return cst.Name(self.torch_name)

    def _torch_call(self, function: str, args: list[cst.BaseExpression]) -> cst.Call:
        return cst.Call(func=cst.Attribute(value=self._torch(), attr=cst.Name(function)), args=_comma_list(args))

    # -- conditional expressions -------------------------------------------------------------------
    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp) -> cst.BaseExpression:
        start, end = self._range(original)
        spec = self.expressions.get(start)
        if spec is None or not self._means_torch(original):
            return updated
        args = [expression_node(text) for text in spec[3]]
        if any(a is None for a in args):
            return updated
        self._place(spec, start, end, replaces_text=True)
        # A comment between the parts of the expression goes above the statement that holds it.
        self._pending += minus(_comments(original), _comments(*args))
        return self._torch_call("where", args).with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        result = super().on_leave(original, updated)
        if self._pending and isinstance(result, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            result = result.with_changes(leading_lines=[*result.leading_lines, *_comment_lines(self._pending)])
            self._pending = []
        return result

    # -- statements --------------------------------------------------------------------------------
    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body = self._rewrite_body(original.body, updated.body)
        self._indents.pop()
        return updated if body is None else updated.with_changes(body=body)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._rewrite_body(original.body, updated.body)
        return updated if body is None else updated.with_changes(body=body)

    def _rewrite_body(self, original: Sequence[cst.BaseStatement], updated: Sequence[cst.BaseStatement]):
        if not self.statements:
            return None
        body: list[cst.BaseStatement] = []
        changed = False
        i = 0
        while i < len(original):
            before = original[i]
            spec = self.statements.get(self._range(before)[0][0]) if isinstance(before, cst.If) else None
            new = None
            if spec is not None and spec[0] == "stmt":
                last = i
                if spec[2] != spec[1]:
                    last = i + 1
                    if last >= len(original) or self._range(original[last])[0][0] != spec[2]:
                        spec = None
                if spec is not None:
                    new = self._where_statement(spec, original[i: last + 1])
            elif spec is not None:
                last = i
                new = self._cond_statements(spec, before, updated[i])
            if new is None:
                body.append(updated[i])
                i += 1
                continue
            body.extend(new)
            changed = True
            i = last + 1
        return body if changed else None

    def _where_statement(self, spec: tuple, removed: Sequence[cst.BaseStatement]) -> Optional[list[cst.BaseStatement]]:
        _, _, _, head, target, texts = spec
        first = removed[0]
        if not self._means_torch(first.test):
            return None
        args = [expression_node(text) for text in texts]
        if any(a is None for a in args):
            return None
        comments = minus(_comments(first.with_changes(leading_lines=()), *removed[1:]), _comments(*args))
        indent = self._indent()
        unit = "\t" if "\t" in indent else "    "

        def statement(call: cst.Call) -> cst.SimpleStatementLine:
            if head == "return":
                small: cst.BaseSmallStatement = cst.Return(value=call)
            else:
                small = cst.Assign(targets=[cst.AssignTarget(target=cst.Name(target))], value=call)
            return cst.SimpleStatementLine(body=[small])

        call = self._torch_call("where", args)
        one_line = self._module.code_for_node(statement(call)).rstrip("\r\n")
        if len(indent) + len(one_line) > MAX_LINE or "\n" in one_line or "\r" in one_line:
            call = self._wrapped(call, args, indent, unit)
        new = statement(call).with_changes(leading_lines=[*first.leading_lines, *_comment_lines(comments)])
        self._place(spec, self._range(first)[0], self._range(removed[-1])[1], replaces_text=True)
        return [new]

    def _wrapped(self, call: cst.Call, args: list[cst.BaseExpression], indent: str, unit: str) -> cst.Call:
        """One argument a line, a trailing comma, the `)` back at the statement's indentation; an
        argument line still too long breaks after the `(` of its last `.where(` (a guarded divisor)."""
        wrapped = []
        for i, arg in enumerate(args):
            line = indent + unit + self._module.code_for_node(arg) + ","
            if len(line) > MAX_LINE and "\n" not in line:
                at = line.rfind(".where(")
                finder = _WhereCalls()
                arg.visit(finder)
                if at > len(indent + unit * 2) and finder.calls:
                    arg = arg.visit(_BreakInside(finder.calls[-1], unit * 2))
            after = _newline_then(unit if i < len(args) - 1 else "")
            wrapped.append(cst.Arg(value=arg, comma=cst.Comma(whitespace_after=after)))
        return call.with_changes(args=wrapped, whitespace_before_args=_newline_then(unit))

    def _cond_statements(self, spec: tuple, original: cst.If, updated: cst.If) -> Optional[list[cst.BaseStatement]]:
        _, _, cond_text, operands, outputs, true_fn, false_fn, true_results, false_results = spec
        if not self._means_torch(original.test) or not isinstance(updated.body, cst.IndentedBlock):
            return None
        orelse = updated.orelse
        if orelse is not None and not (isinstance(orelse, cst.Else) and isinstance(orelse.body, cst.IndentedBlock)):
            return None
        cond = expression_node(cond_text)
        results = [[expression_node(t) for t in side] for side in (true_results, false_results)]
        if cond is None or any(r is None for side in results for r in side):
            return None
        moved: list[str] = []
        functions = []
        for name, block, returned in ((true_fn, updated.body, results[0]),
                                      (false_fn, orelse.body if orelse is not None else None, results[1])):
            kept, left = self._kept(block)
            if orelse is not None and block is orelse.body:
                moved += _comments(*orelse.leading_lines, orelse.body.header)
            elif block is updated.body:
                moved += minus(_comments(original.whitespace_before_test, original.test,
                                          original.whitespace_after_test, updated.body.header), _comments(cond))
            moved += left
            indent = (block if block is not None else updated.body).indent
            body = [*kept, cst.SimpleStatementLine(body=[cst.Return(value=_tuple(returned))])]
            params = cst.Parameters(params=[cst.Param(name=cst.Name(n), comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")) if i < len(operands) - 1 else cst.MaybeSentinel.DEFAULT)
                for i, n in enumerate(operands)])
            functions.append(cst.FunctionDef(name=cst.Name(name), params=params,
                                             body=cst.IndentedBlock(body=body, indent=indent)))
        packed = cst.Tuple(elements=[cst.Element(value=cst.Name(n), comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" ")) if i < len(operands) - 1 else
            (cst.Comma() if len(operands) == 1 else cst.MaybeSentinel.DEFAULT)) for i, n in enumerate(operands)])
        call = self._torch_call("cond", [cond, cst.Name(true_fn), cst.Name(false_fn), packed])
        assign = cst.SimpleStatementLine(body=[cst.Assign(
            targets=[cst.AssignTarget(target=_tuple([cst.Name(n) for n in outputs]))], value=call)])
        functions[0] = functions[0].with_changes(leading_lines=[*original.leading_lines, *_comment_lines(moved)])
        start, end = self._range(original)
        self._place(spec, start, end, replaces_text=False)
        return [*functions, assign]

    def _kept(self, block: Optional[cst.IndentedBlock]) -> tuple[list[cst.BaseStatement], list[str]]:
        """The statements a torch.cond branch keeps (from the first to the last that is not `pass`,
        exactly as written) and the comments of what it drops (a lone `pass`, the comment lines above
        the first statement and below the last), in source order."""
        if block is None:
            return [], []
        real = [i for i, s in enumerate(block.body) if not _is_pass(s)]
        if not real:
            return [], _comments(*block.body, *block.footer)
        first, last = real[0], real[-1]
        kept = list(block.body[first: last + 1])
        dropped_before = _comments(*block.body[:first], *kept[0].leading_lines)
        kept[0] = kept[0].with_changes(leading_lines=())
        dropped_after = _comments(*block.body[last + 1:], *block.footer)
        return kept, dropped_before + dropped_after


def _is_pass(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, cst.Pass) for s in stmt.body)


def _tuple(values: list[cst.BaseExpression]) -> Union[cst.BaseExpression, cst.Tuple]:
    """`a` for one value, `a, b` (no parentheses) for more."""
    if len(values) == 1:
        return values[0]
    return cst.Tuple(elements=[cst.Element(value=v, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                                           if i < len(values) - 1 else cst.MaybeSentinel.DEFAULT)
                               for i, v in enumerate(values)], lpar=[], rpar=[])



# Two siblings, not a class and its subclass: LibCST caches a class's metadata dependencies on the
# class, and a subclass would read its parent's cache (libcst 1.9, get_inherited_dependencies).
class BranchRewrite(_BranchRewrite):
    """For a file whose ast shows that nothing rebinds the torch name (fix/rewrite.py,
    torch_never_rebound): every use means the module's torch."""

    def _means_torch(self, node: cst.CSTNode) -> bool:
        return True


class ScopedBranchRewrite(_BranchRewrite):
    """BranchRewrite that asks LibCST's scope metadata what the torch name means where the rewrite
    lands (a parameter or local called `torch` is left alone). Resolving scopes is most of the
    transform's time, so it is used only where the file rebinds the name somewhere."""

    METADATA_DEPENDENCIES = (ScopeProvider,)

    def _means_torch(self, node: cst.CSTNode) -> bool:
        return scope_means_torch(self, node)
