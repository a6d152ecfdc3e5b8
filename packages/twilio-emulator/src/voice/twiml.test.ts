import { describe, expect, it } from 'vitest';
import { parseTwiml } from './twiml';

describe('TwiML reader', () => {
  it('reads verbs, nouns, attributes, text with entities and CDATA, skipping the declaration and comments', () => {
    const document = parseTwiml(
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- hi --><Response>\n  <Say voice=\'alice\'>Tom &amp; Jerry &#169; &#x41;</Say>' +
        '<Dial timeout="10"><Client><Identity>bob</Identity><Parameter name="a" value="&lt;1&gt;"/></Client></Dial>' +
        '<Say><![CDATA[<raw> & text]]></Say><Hangup/></Response>\n',
    );
    expect(document).toEqual({
      ok: true,
      verbs: [
        { name: 'Say', attributes: { voice: 'alice' }, children: [], text: 'Tom & Jerry © A' },
        {
          name: 'Dial',
          attributes: { timeout: '10' },
          text: '',
          children: [
            {
              name: 'Client',
              attributes: {},
              text: '',
              children: [
                { name: 'Identity', attributes: {}, children: [], text: 'bob' },
                { name: 'Parameter', attributes: { name: 'a', value: '<1>' }, children: [], text: '' },
              ],
            },
          ],
        },
        { name: 'Say', attributes: {}, children: [], text: '<raw> & text' },
        { name: 'Hangup', attributes: {}, children: [], text: '' },
      ],
    });
  });

  it('refuses what Twilio cannot parse (12100): other roots, unclosed or mismatched elements, bad entities, trailing content', () => {
    for (const body of [
      '',
      'Hello',
      '<Speak/>',
      '<Response><Say>hi</Response>',
      '<Response><Say>hi</Say>',
      '<Response>&nbsp;</Response>',
      '<Response a=1/>',
      '<Response/><Response/>',
    ]) {
      expect(parseTwiml(body).ok, body).toBe(false);
    }
  });
});
