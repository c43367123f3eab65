import { expect } from 'vitest';
import { readMailbox } from '@ques/kit';
import { eventually } from '@ques/kit/testing';
import { call, signup, verifyEmail } from './identity-journey.js';

type Item = { _id: string; [key: string]: any };
const ids = (list: Item[]) => list.map((q) => q._id);

/**
 * The acceptance journey of the questions issue, through the BFF: a guest asks → the owner sees it privately → answers
 * with tags → public, newest first → hide → show → delete; a signed-in asker sees and withdraws their question;
 * curated Q&A; the cross-user matrix; the notification e-mails.
 */
export async function questionsJourney(base: string, tag: string, mailDir: string) {
  const owner = await signup(base, 'Quinn Owner', `quinn.${tag}@example.com`);
  const asker = await signup(base, 'Sam Asker', `sam.${tag}@example.com`);
  const stranger = await signup(base, 'Eve Stranger', `eve.${tag}@example.com`);
  const guestEmail = `guest.${tag}@example.com`;
  const guestAsk = (question: string) =>
    call(base, 'POST', '/api/questions', {
      question,
      detail: '',
      tip: 0,
      isCurated: false,
      toUsername: owner.username,
      recipientName: 'Quinn Owner',
      toUserId: owner.id,
      fromUsername: 'guest',
      askedName: 'Gus Guest',
      askedEmail: guestEmail,
      yourName: 'Gus Guest',
      yourEmail: guestEmail,
      agreedToTerms: true,
    });

  // The owner proves their address by the link mailed at signup: only then do notification e-mails go to it.
  await verifyEmail(base, mailDir, owner.email);
  // Questions learns it from identity's event: a guest question asked with the owner's address shows in the owner's
  // asked list once it has (asked to the stranger, who has not verified and so is not mailed).
  const probe = await eventually(async () => {
    const res = await call(base, 'POST', '/api/questions', {
      question: 'Probe: is the address verified?', detail: '', tip: 0, isCurated: false, toUsername: stranger.username,
      toUserId: stranger.id, askedName: 'Quinn Owner', askedEmail: owner.email, agreedToTerms: true,
    });
    return res.status === 201 ? (res.body._id as string) : null;
  });
  await eventually(async () => {
    const list = await call(base, 'GET', '/api/questions?role=asker', undefined, owner.token);
    return list.status === 200 && ids(list.body).includes(probe);
  });
  // The stranger deletes it from their inbox (the journey's lists stay as they were).
  expect((await call(base, 'PATCH', `/api/questions/${probe}`, { deletedByReceiver: true }, stranger.token)).status).toBe(200);

  // Questions learns about the owner from identity's event: asking works once it has arrived.
  const first = await eventually(async () => {
    const res = await guestAsk('What is the first question?');
    return res.status === 201 ? res : null;
  });
  expect(first.body).toMatchObject({
    status: 'Pending',
    toUsername: owner.username,
    recipientName: 'Quinn Owner',
    fromUsername: 'guest',
    tip: 0,
  });
  const q1: string = first.body._id;

  // The owner sees it; the public does not.
  const mine = await call(base, 'GET', '/api/questions', undefined, owner.token);
  expect(mine.status).toBe(200);
  expect(mine.body.find((q: Item) => q._id === q1)).toMatchObject({
    askedEmail: guestEmail,
    status: 'Pending',
  });
  const publicList = () => call(base, 'GET', `/api/questions?username=${owner.username}&role=receiver`);
  expect(ids((await publicList()).body)).not.toContain(q1);
  expect((await call(base, 'GET', '/api/questions')).status).toBe(401);

  // Answer with tags → public, newest first, tags normalised, no e-mail addresses.
  const answered = await call(
    base,
    'PUT',
    `/api/questions/${q1}/answer`,
    {
      answer: 'The first answer.',
      displayOnProfile: true,
      replierName: 'Quinn',
      tags: ['Intro', ' intro ', 'FAQ'],
    },
    owner.token,
  );
  expect(answered.status).toBe(200);
  expect(answered.body).toMatchObject({ status: 'Answered', tags: ['intro', 'faq'], tip: 0 });
  const q2: string = (await guestAsk('And the second one?')).body._id;
  await call(base, 'PUT', `/api/questions/${q2}/answer`, { answer: 'Second answer.' }, owner.token);
  const pub = await publicList();
  expect(ids(pub.body)).toEqual([q2, q1]);
  expect(pub.body[1]).toMatchObject({
    question: 'What is the first question?',
    answer: 'The first answer.',
    tags: ['intro', 'faq'],
  });
  expect(pub.text).not.toContain('@');
  const paged = await call(base, 'GET', `/api/questions?username=${owner.username}&role=receiver&limit=1`);
  expect(ids(paged.body)).toEqual([q2]);
  const next = await call(
    base,
    'GET',
    `/api/questions?username=${owner.username}&role=receiver&limit=1&cursor=${paged.headers.get('x-next-cursor')}`,
  );
  expect(ids(next.body)).toEqual([q1]);
  expect((await call(base, 'GET', `/api/questions/${q1}`)).body).toMatchObject({
    _id: q1,
    answer: 'The first answer.',
  });

  // Hide → gone, show → back, delete by receiver → gone from the inbox.
  expect(
    (await call(base, 'PATCH', `/api/questions/${q1}`, { displayOnProfile: false }, owner.token)).status,
  ).toBe(200);
  expect(ids((await publicList()).body)).not.toContain(q1);
  expect(
    (await call(base, 'PATCH', `/api/questions/${q1}`, { displayOnProfile: true }, owner.token)).status,
  ).toBe(200);
  expect(ids((await publicList()).body)).toContain(q1);
  expect(
    (await call(base, 'PATCH', `/api/questions/${q1}`, { deletedByReceiver: true }, owner.token)).status,
  ).toBe(200);
  expect(
    ids((await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token)).body),
  ).not.toContain(q1);
  expect(ids((await publicList()).body)).not.toContain(q1);

  // A signed-in asker: in their asked list, withdrawable while pending.
  const asked = await call(
    base,
    'POST',
    '/api/questions',
    { question: 'Signed-in question?', detail: '', tip: 0, toUserId: owner.id, toUsername: owner.username },
    asker.token,
  );
  expect(asked.status).toBe(201);
  expect(asked.body).toMatchObject({
    fromUsername: asker.username,
    askedName: 'Sam Asker',
    askedEmail: asker.email,
  });
  const q3: string = asked.body._id;
  expect(ids((await call(base, 'GET', '/api/questions?role=asker', undefined, asker.token)).body)).toEqual([
    q3,
  ]);

  // Cross-user matrix on the pending question: nobody else reads or changes it, and learns nothing.
  for (const token of [undefined, stranger.token]) {
    const responses = [
      await call(base, 'GET', `/api/questions/${q3}`, undefined, token),
      await call(base, 'PUT', `/api/questions/${q3}/answer`, { answer: 'hijack' }, token),
      await call(base, 'PATCH', `/api/questions/${q3}`, { deletedByReceiver: true }, token),
      await call(base, 'PATCH', `/api/questions/${q3}`, { displayOnProfile: false }, token),
      await call(base, 'DELETE', `/api/questions/${q3}`, undefined, token),
    ];
    expect(responses.map((r) => r.status)).toEqual(
      token ? [404, 404, 404, 404, 404] : [404, 401, 401, 401, 401],
    );
    for (const r of responses) expect(r.text).not.toMatch(/Signed-in question|@/);
  }
  expect((await call(base, 'GET', '/api/questions', undefined, stranger.token)).body).toEqual([]);
  expect(
    (
      await call(
        base,
        'PUT',
        `/api/questions/${q2}/answer`,
        { answer: 'hijack', skipNotify: true },
        stranger.token,
      )
    ).status,
  ).toBe(403);

  const withdrawn = await call(base, 'DELETE', `/api/questions/${q3}`, undefined, asker.token);
  expect(withdrawn.status).toBe(200);
  expect((await call(base, 'GET', '/api/questions?role=asker', undefined, asker.token)).body).toEqual([]);
  const late = await call(base, 'PUT', `/api/questions/${q3}/answer`, { answer: 'Too late' }, owner.token);
  expect([late.status, late.body.message]).toEqual([
    409,
    'This question was withdrawn by the asker. It can no longer be answered.',
  ]);

  // Curated Q&A: in the owner's curated list and on the public page.
  const curated = await call(
    base,
    'POST',
    '/api/questions',
    {
      question: 'A curated one?',
      detail: '',
      answer: 'Curated answer.',
      source: '',
      displayOnProfile: true,
      isCurated: true,
      tip: 0,
      yourName: 'Quinn Owner',
      yourEmail: owner.email,
      toUsername: owner.username,
      fromUsername: owner.username,
      tags: ['curated'],
    },
    owner.token,
  );
  expect(curated.status).toBe(201);
  expect(ids((await call(base, 'GET', '/api/questions?role=curated', undefined, owner.token)).body)).toEqual([
    curated.body._id,
  ]);
  expect(ids((await publicList()).body)[0]).toBe(curated.body._id);

  // Issue 14: the guest got a status link per question (nothing they typed in it); the answers wait until a link is
  // opened, which confirms the address.
  const statusMails = () => readMailbox(mailDir).filter((m) => m.to === guestEmail && m.subject.startsWith('Your question to'));
  await eventually(async () => statusMails().length === 2);
  for (const m of statusMails()) {
    expect(m.text).not.toContain('Gus Guest');
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(m.text)![1]!;
    expect((await call(base, 'POST', `/api/question-status/${token}/confirm`)).status).toBe(200);
  }
  // E-mails: the owner for each new question, the guest for the answer; the edit sends nothing.
  await call(
    base,
    'PUT',
    `/api/questions/${q2}/answer`,
    { answer: 'Second answer, edited.', tags: [], skipNotify: true },
    owner.token,
  );
  const answerMail = (m: { to: string; subject: string }) => m.to === guestEmail && m.subject.includes('answered');
  await eventually(async () => {
    const mails = readMailbox(mailDir);
    return (
      mails.filter((m) => m.to === owner.email && m.subject.startsWith('New question')).length === 3 &&
      mails.filter(answerMail).length === 2
    );
  });
  const mails = readMailbox(mailDir);
  expect(
    mails
      // (Not the verification mail, nor the status link of a question this address asked as a guest: issue 14.)
      .filter((m) => m.to === owner.email && !/verify your email|^Your question to/i.test(m.subject))
      .map((m) => m.subject)
      .sort(),
  ).toEqual(['New question from Gus Guest', 'New question from Gus Guest', 'New question from Sam Asker']);
  const toGuest = mails.filter(answerMail);
  expect(toGuest.map((m) => m.subject)).toEqual([
    'Quinn Owner answered your question',
    'Quinn Owner answered your question',
  ]);
  expect(
    toGuest.some((m) => m.text.includes(`/ask/${owner.username}/question/${q2}/and-the-second-one`)),
  ).toBe(true);
  expect(toGuest.some((m) => m.text.includes('edited'))).toBe(false);

  return { owner, asker, questionIds: [q1, q2, q3, curated.body._id as string] };
}
