import { languageCode } from "./ScriptLanguage.js"
import * as Line from "./ScriptLines.js"
import * as Vocabulary from "./ScriptVocabulary.js"

export interface StepDraft {
  title: string
  description: string
}
export interface PairDraft {
  first: string
  second: string
}
export interface FieldDraft {
  name: string
  description: string
  readonly type: Vocabulary.FieldType | undefined
}
export interface KnowledgeLine {
  readonly text: string
  readonly candidate: boolean
}
/** The item a deeper-indented line continues. */
export interface OpenItem {
  readonly indent: number
  readonly append: (text: string, marked: boolean) => void
}

/** Everything read from a script so far, line by line (`line`, then `finish`), before defaults apply. */
export class ScriptDraft {
  readonly labels = new Map<Vocabulary.Label, string>()
  readonly steps: Array<StepDraft> = []
  readonly objections: Array<PairDraft> = []
  readonly faq: Array<PairDraft> = []
  readonly required: Array<string> = []
  readonly avoid: Array<string> = []
  readonly fields: Array<FieldDraft> = []
  readonly custom: Array<FieldDraft> = []
  readonly facts = new Map<string, string>()
  readonly knowledge: Array<KnowledgeLine> = []

  private section: Vocabulary.Section | undefined
  private block:
    { readonly label: Vocabulary.Label; readonly key: string; readonly parts: Array<string> } | undefined
  private afterBlank = false
  private open: OpenItem | undefined
  private pair: PairDraft | undefined

  constructor(private readonly polish: boolean) {}

  line(raw: string): void {
    const line = raw.trim()
    if (line === "" || Line.isSeparator(line)) {
      this.afterBlank = true
      this.endBlock()
      return
    }
    this.read(line, Line.indentOf(raw))
    this.afterBlank = false
  }

  finish(): void {
    this.endBlock()
  }

  private read(line: string, indent: number): void {
    const marker = Line.listMarker(line)
    const header = marker === undefined ? this.header(line) : undefined
    if (this.block !== undefined) {
      // `Hi John: …` under `Greeting:` is the greeting, not a fact: only known keys end the block
      if (marker === undefined && header === undefined && !this.isKnownKey(line)) {
        const part = Line.unquote(line)
        if (part !== "") this.block.parts.push(part)
        return
      }
      this.endBlock()
    }
    // In a section whose items are list items, an unbulleted header or label is not an item: it ends the
    // section (a `Collect: …` line right under a list of required phrases starts the data fields).
    if (this.section !== undefined && marker === undefined && Vocabulary.listedSections.has(this.section)) {
      if (header !== undefined) return this.openSection(header)
      if (this.isKnownKey(line)) {
        this.section = undefined
        this.open = undefined
      }
    }
    if (this.section !== undefined) {
      if (header !== undefined && (header.rest === "" || this.afterBlank)) return this.openSection(header)
      if (!this.afterBlank || this.continues(this.section, line, marker)) {
        return this.sectionLine(this.section, line, indent, marker)
      }
      this.section = undefined
      this.open = undefined
    }
    if (header !== undefined) return this.openSection(header)
    this.topLine(line, indent, marker)
  }

  private header(line: string): { readonly section: Vocabulary.Section; readonly rest: string } | undefined {
    const text = Line.bare(line)
    const split = Line.splitKey(text)
    const key = Vocabulary.fold(split === undefined ? text.replace(/:$/, "") : split.key)
    const section = Vocabulary.sectionNames.get(key)
    if (section === undefined || (this.polish && key === "data")) return undefined
    return { section, rest: split?.value ?? "" }
  }

  private isKnownKey(line: string): boolean {
    const split = Line.splitKey(Line.bare(line))
    if (split === undefined) return false
    const key = Vocabulary.fold(split.key)
    return Vocabulary.labelNames.has(key) || Vocabulary.pairNames.has(key)
  }

  /** Whether a line after a blank line still belongs to the section. */
  private continues(section: Vocabulary.Section, line: string, marker: Line.Marker | undefined): boolean {
    if (marker !== undefined) return true
    const split = Line.splitKey(Line.bare(line))
    const key = split === undefined ? undefined : Vocabulary.fold(split.key)
    switch (section) {
      case "facts":
        return split !== undefined && !this.isKnownKey(line)
      case "knowledge":
        return !this.isKnownKey(line)
      case "objections":
      case "faq":
        if (key !== undefined && Vocabulary.sectionPairNames.has(key)) return true
        if (this.isKnownKey(line)) return false
        return Line.splitArrow(line) !== undefined || (section === "faq" && line.includes("?"))
      default:
        return false
    }
  }

  private openSection(header: { readonly section: Vocabulary.Section; readonly rest: string }): void {
    this.section = header.section
    this.open = undefined
    this.pair = undefined
    if (header.rest === "") return
    const listed = header.section === "collect" || header.section === "custom" || header.section === "avoid"
    for (const part of listed ? header.rest.split(/[,;]/) : [header.rest]) {
      const text = part.trim()
      if (text !== "") this.sectionLine(header.section, text, 0, Line.listMarker(text))
    }
  }

  private sectionLine(
    section: Vocabulary.Section,
    line: string,
    indent: number,
    marker: Line.Marker | undefined
  ): void {
    const content = marker?.content ?? line
    if (section === "knowledge") {
      this.knowledge.push({ text: line, candidate: false })
      return
    }
    if (this.open !== undefined && indent > this.open.indent && !this.afterBlank) {
      const text = Line.unquote(content)
      if (text !== "") this.open.append(text, marker !== undefined)
      return
    }
    switch (section) {
      case "steps":
        return this.addStep(content, indent)
      case "required":
        return this.addText(this.required, content, indent)
      case "avoid":
        return this.addText(this.avoid, content, indent)
      case "collect":
        return this.addField(this.fields, content, indent)
      case "custom":
        return this.addField(this.custom, content, indent)
      case "facts":
        return this.factItem(content, indent)
      case "objections":
      case "faq":
        return this.pairLine(section, content, indent, marker !== undefined)
    }
  }

  private topLine(line: string, indent: number, marker: Line.Marker | undefined): void {
    const open = this.open
    this.open = undefined
    if (marker?.numbered === true) return this.addStep(marker.content, indent)
    const content = marker?.content ?? line
    const split = Line.splitKey(Line.bare(content))
    const key = split === undefined ? undefined : Vocabulary.fold(split.key)
    const label = key === undefined ? undefined : Vocabulary.labelNames.get(key)
    if (split !== undefined && label !== undefined) {
      if (split.value === "" && marker === undefined) {
        this.block = { label, key: split.key, parts: [] }
      } else this.setLabel(label, split.key, split.value)
      return
    }
    const role = key === undefined ? undefined : Vocabulary.pairNames.get(key)
    if (split !== undefined && role !== undefined) {
      if (role === "reply") {
        this.knowledge.push({ text: content, candidate: false })
        return
      }
      this.section = role === "objection" ? "objections" : "faq"
      this.pair = undefined
      return this.startPair(this.section, split.value, indent)
    }
    if (marker !== undefined) return this.addStep(marker.content, indent)
    if (open !== undefined && indent > open.indent && !this.afterBlank) {
      this.open = open
      const text = Line.unquote(line)
      if (text !== "") open.append(text, false)
      return
    }
    if (split !== undefined && Line.isShortKey(split.key)) {
      if (split.value === "") this.knowledge.push({ text: line, candidate: false })
      else this.addFact(split.key, split.value, line)
      return
    }
    if (line.startsWith("#")) {
      const heading = line.replace(/^#+/, "").trim()
      if (Line.usable(heading)) this.knowledge.push({ text: heading, candidate: false })
      return
    }
    const text = Line.unquote(line)
    if (Line.usable(text)) this.knowledge.push({ text, candidate: true })
  }

  private endBlock(): void {
    const block = this.block
    if (block === undefined) return
    this.block = undefined
    this.setLabel(block.label, block.key, block.parts.join(" "))
  }

  private setLabel(label: Vocabulary.Label, key: string, raw: string): void {
    const value = Line.unquote(raw)
    if (value === "") return
    const keep = (): void => {
      this.knowledge.push({ text: `${key}: ${value}`, candidate: false })
    }
    if (label === "address" && Vocabulary.fold(key) === "address" && /\d/.test(value)) {
      return this.addFact(key, value, `${key}: ${value}`)
    }
    let accepted = value
    if (label === "direction") {
      const direction = Line.directionOf(value)
      if (direction === undefined) return keep()
      accepted = direction
    } else if (label === "language") {
      const code = languageCode(value)
      if (code === undefined) return keep()
      accepted = code
    } else if (label === "name") {
      accepted = value.slice(0, 255).trim()
    }
    if (this.labels.has(label)) return keep()
    this.labels.set(label, accepted)
  }

  private addStep(content: string, indent: number): void {
    const whole = Line.unquote(content)
    if (whole === "") return
    const split = whole === content.trim() ? Line.splitKey(Line.bare(whole)) : undefined
    const title = split === undefined ? "" : Line.unquote(split.key)
    const step: StepDraft =
      title === ""
        ? { title: whole, description: "" }
        : { title, description: Line.unquote(split?.value ?? "") }
    this.steps.push(step)
    this.open = {
      indent,
      append: (text, marked) => {
        step.description = Line.join(step.description, text, marked ? "; " : " ")
      }
    }
  }

  private addText(list: Array<string>, content: string, indent: number): void {
    const text = Line.unquote(content)
    if (text === "") return
    const index = list.push(text) - 1
    this.open = {
      indent,
      append: (more) => {
        list[index] = Line.join(list[index] ?? "", more)
      }
    }
  }

  private addField(list: Array<FieldDraft>, content: string, indent: number): void {
    const whole = Line.unquote(content)
    if (whole === "") return
    const split = Line.splitKey(whole)
    let name = split?.key ?? whole
    let type: Vocabulary.FieldType | undefined
    const typed = /\(([^()]*)\)\s*$/.exec(name)
    if (typed !== null) {
      type = Vocabulary.fieldTypes.get(Vocabulary.fold(typed[1] ?? ""))
      if (type !== undefined) name = name.slice(0, typed.index)
    }
    name = Line.unquote(name)
    const field: FieldDraft =
      name === ""
        ? { name: whole, description: "", type: undefined }
        : { name, description: Line.unquote(split?.value ?? ""), type }
    list.push(field)
    this.open = {
      indent,
      append: (text) => {
        field.description = Line.join(field.description, text)
      }
    }
  }

  private factItem(content: string, indent: number): void {
    const text = content.trim()
    const split = Line.splitKey(Line.bare(text))
    if (split !== undefined) return this.addFact(split.key, split.value, text, indent)
    const separator = /\s[-–—]\s|=/.exec(text)
    if (separator !== null) {
      const key = text.slice(0, separator.index)
      const value = text.slice(separator.index + separator[0].length)
      return this.addFact(key, value, text, indent)
    }
    if (Line.usable(text)) this.knowledge.push({ text: Line.unquote(text), candidate: false })
  }

  private addFact(rawKey: string, rawValue: string, line: string, indent = 0): void {
    const key = Line.unquote(rawKey)
    const value = Line.unquote(rawValue)
    if (key === "" || value === "") {
      if (Line.usable(line)) this.knowledge.push({ text: line, candidate: false })
      return
    }
    // Schema's Record drops an own `__proto__` key when encoding or decoding, so it cannot be a fact
    if (this.facts.has(key) || key === "__proto__") {
      this.knowledge.push({ text: `${key}: ${value}`, candidate: false })
      return
    }
    this.facts.set(key, value)
    this.open = {
      indent,
      append: (text) => {
        this.facts.set(key, Line.join(this.facts.get(key) ?? "", text))
      }
    }
  }

  private pairLine(section: "objections" | "faq", content: string, indent: number, marked: boolean): void {
    const split = Line.splitKey(Line.bare(content))
    const role = split === undefined ? undefined : Vocabulary.sectionPairNames.get(Vocabulary.fold(split.key))
    if (split !== undefined && role !== undefined) {
      return role === "reply" ? this.reply(split.value) : this.startPair(section, split.value, indent)
    }
    const arrowed = Line.splitArrow(content)
    if (arrowed !== undefined) {
      this.startPair(section, arrowed.left, indent)
      return this.reply(arrowed.right)
    }
    if (section === "faq") {
      const asked = Line.splitQuestion(content)
      if (asked !== undefined) {
        this.startPair(section, asked.question, indent)
        return this.reply(asked.answer)
      }
    } else if (split !== undefined && split.value !== "" && content.trim() === Line.unquote(content)) {
      this.startPair(section, split.key, indent)
      return this.reply(split.value)
    }
    const pair = this.pair
    if (!marked && pair !== undefined && (pair.first === "" || pair.second === "")) {
      const text = Line.unquote(content)
      if (pair.first === "") pair.first = text
      else pair.second = text
      return
    }
    this.startPair(section, content, indent)
  }

  private startPair(section: "objections" | "faq", first: string, indent: number): void {
    const pair: PairDraft = { first: Line.unquote(first), second: "" }
    ;(section === "objections" ? this.objections : this.faq).push(pair)
    this.pair = pair
    this.open = {
      indent,
      append: (text) => {
        if (pair.first === "") pair.first = text
        else pair.second = Line.join(pair.second, text)
      }
    }
  }

  private reply(raw: string): void {
    const text = Line.unquote(raw)
    if (text === "") return
    const pair = this.pair
    if (pair === undefined) this.knowledge.push({ text, candidate: false })
    else pair.second = Line.join(pair.second, text)
  }
}
