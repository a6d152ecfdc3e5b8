import { describe, expect, it } from 'vitest';
import { callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { EMPTY_TWIML, newPhone, smsLine, textIn, wholeThread } from '../support/sms';
import { companyCounts, tableStats } from '../support/table';

/**
 * A busy company's peak, with DynamoDB's transaction conflicts simulated (local/dynamodb-proxy.ts, on
 * unless DYNAMODB_CONFLICTS=off): Twilio does not retry an inbound text's webhook, so every one must
 * be answered 2xx once its text is stored, whatever it raced. A rate is a goal of the
 * machine as much as of the product, so this is a benchmark (`npm run bench`, project `peak`, alone
 * on a stack of its own), not part of `npm test`.
 */

const TEXTS = 300;
const PHONES = 30;
const PER_SECOND = 20;

describe('a busy company at its peak', () => {
  it(`answers ${TEXTS} inbound texts from ${PHONES} phones at ${PER_SECOND} a second with 2xx, each stored once, counters exact`, async () => {
    const line = await smsLine();
    const phones = Array.from({ length: PHONES }, () => newPhone());
    const texts = Array.from({ length: TEXTS }, (_, i) => ({ from: phones[i % PHONES] as string, body: `peak text ${i + 1}` }));
    const before = await tableStats();

    // Paced as Twilio delivers them: one every 1/PER_SECOND s, each answered whenever it is.
    const answers: Promise<Awaited<ReturnType<typeof textIn>>>[] = [];
    for (const text of texts) {
      answers.push(textIn(line, text));
      await new Promise((resolve) => setTimeout(resolve, 1000 / PER_SECOND));
    }
    const answered = await Promise.all(answers);
    const after = await tableStats();
    console.log(
      `peak: ${TEXTS} texts, ${after.transactionConflicts - before.transactionConflicts} transaction conflicts met, ` +
        `${(after.requests.TransactWriteItems ?? 0) - (before.requests.TransactWriteItems ?? 0)} transactions`,
    );

    expect(answered.filter((a) => a.status !== 200)).toEqual([]);
    expect(answered.every((a) => a.text === EMPTY_TWIML)).toBe(true);

    // One conversation per phone, each with its ten texts once.
    const list = await callRoute(endpoints.listConversations, {
      query: { status: 'BOTH', limit: PHONES + 10 },
      token: line.account.tokens.accessToken,
    });
    expect(list.body.data.pagination.total).toBe(PHONES);
    const conversations = list.body.data.conversations;
    expect(new Set(conversations.map((c) => c.contact.phoneNumber))).toEqual(new Set(phones));
    const stored = (await Promise.all(conversations.map((c) => wholeThread(line.account, c.id).then((t) => t.messages)))).flat();
    expect(stored.map((m) => m.body).sort()).toEqual(texts.map((t) => t.body).sort());
    expect(conversations.every((c) => c.messageCount === TEXTS / PHONES)).toBe(true);

    expect(await companyCounts(line.account.company.id)).toEqual({
      smsReceived: TEXTS,
      smsSent: 0,
      openConversations: PHONES,
      closedConversations: 0,
    });
  });
});
