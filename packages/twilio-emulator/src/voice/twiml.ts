/** One element of a TwiML document: its name, attributes, child elements and text. */
export interface TwimlElement {
  name: string;
  attributes: Record<string, string>;
  children: TwimlElement[];
  /** The element's own text (its children's excluded), entities decoded, trimmed. */
  text: string;
}

export type TwimlDocument = { ok: true; verbs: TwimlElement[] } | { ok: false; error: string };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Reads a TwiML answer as Twilio does: well-formed XML whose root is `<Response>`; anything else is
 * Twilio's 12100 (document parse failure). A small reader of the XML TwiML uses (elements, attributes,
 * text, entities, CDATA, comments, the declaration), so the emulator needs no XML library.
 * https://www.twilio.com/docs/api/errors/12100
 */
export function parseTwiml(body: string): TwimlDocument {
  try {
    const root = readDocument(body);
    if (root.name !== 'Response') return { ok: false, error: `The root element is <${root.name}>, not <Response>.` };
    return { ok: true, verbs: root.children };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function readDocument(xml: string): TwimlElement {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${at}.`);
  };
  const skipMisc = () => {
    for (;;) {
      while (at < xml.length && /\s/.test(xml.charAt(at))) at++;
      if (xml.startsWith('<?', at)) {
        const end = xml.indexOf('?>', at);
        if (end < 0) fail('Unclosed declaration');
        at = end + 2;
      } else if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at);
        if (end < 0) fail('Unclosed comment');
        at = end + 3;
      } else return;
    }
  };
  const decode = (text: string) =>
    text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (entity, name: string) => {
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      const value = ENTITIES[name];
      if (value === undefined) fail(`Unknown entity ${entity}`);
      return value ?? '';
    });
  const readName = () => {
    const match = /^[A-Za-z_][\w.:-]*/.exec(xml.slice(at, at + 256));
    if (!match) fail('Expected a name');
    at += match?.[0].length ?? 0;
    return match?.[0] ?? '';
  };
  const readElement = (): TwimlElement => {
    if (xml.charAt(at) !== '<') fail('Expected an element');
    at++;
    const element: TwimlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      while (/\s/.test(xml.charAt(at))) at++;
      if (xml.startsWith('/>', at)) {
        at += 2;
        return element;
      }
      if (xml.charAt(at) === '>') {
        at++;
        break;
      }
      const name = readName();
      while (/\s/.test(xml.charAt(at))) at++;
      if (xml.charAt(at) !== '=') fail(`Expected = after attribute ${name}`);
      at++;
      while (/\s/.test(xml.charAt(at))) at++;
      const quote = xml.charAt(at);
      if (quote !== '"' && quote !== "'") fail(`Expected a quoted value for attribute ${name}`);
      const end = xml.indexOf(quote, at + 1);
      if (end < 0) fail(`Unclosed value of attribute ${name}`);
      if (name in element.attributes) fail(`Attribute ${name} repeated`);
      element.attributes[name] = decode(xml.slice(at + 1, end));
      at = end + 1;
    }
    let text = '';
    for (;;) {
      if (at >= xml.length) fail(`Unclosed element <${element.name}>`);
      if (xml.startsWith('</', at)) {
        at += 2;
        const name = readName();
        if (name !== element.name) fail(`</${name}> closes <${element.name}>`);
        while (/\s/.test(xml.charAt(at))) at++;
        if (xml.charAt(at) !== '>') fail(`Expected > after </${name}`);
        at++;
        element.text = text.trim();
        return element;
      }
      if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at);
        if (end < 0) fail('Unclosed comment');
        at = end + 3;
      } else if (xml.startsWith('<![CDATA[', at)) {
        const end = xml.indexOf(']]>', at);
        if (end < 0) fail('Unclosed CDATA section');
        text += xml.slice(at + 9, end);
        at = end + 3;
      } else if (xml.charAt(at) === '<') {
        element.children.push(readElement());
      } else {
        const end = xml.indexOf('<', at);
        text += decode(xml.slice(at, end < 0 ? xml.length : end));
        at = end < 0 ? xml.length : end;
      }
    }
  };

  // A byte-order mark may come first.
  if (xml.charCodeAt(0) === 0xfeff) at = 1;
  skipMisc();
  if (at >= xml.length) fail('The document is empty');
  const root = readElement();
  skipMisc();
  if (at < xml.length) fail('Content after the root element');
  return root;
}
