import { writeFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerCard, profileCard, SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH } from '@ques/contracts/core';
import { renderCardPng, renderCardSvg } from './image.js';

/*
 * Issue 15 share images (docs/adr/0029): a 1200×630 PNG for any text — long, right-to-left, CJK, emoji — with every
 * laid-out node inside the card (the clamp works), and different pixels for different answers.
 */

const profile = {
  username: 'ada',
  name: 'Ada Lovelace',
  bio: 'First programmer.',
  avatarUrl: '',
  brandColorMain: '#0f766e',
  brandColorLight: '#f0fdfa',
  archiveProfile: false,
};
const CASES = {
  latin: { _id: 'a', question: 'How did you first read Babbage’s notes?', answer: 'In translation, then with my own notes.' },
  rtl: { _id: 'b', question: 'מה שלומך היום? 😀 كيف حالك؟ 👍🏽', answer: 'תשובה בעברית עם אימוג׳י ❤️ وبعض العربية أيضا 🚀' },
  cjk: { _id: 'c', question: '你好，世界！这是一个很长的问题吗？日本語のテキストも表示できますか？'.repeat(4), answer: '한국어 텍스트 '.repeat(60) },
  long: { _id: 'd', question: 'Supercalifragilisticexpialidocious'.repeat(20), answer: 'word '.repeat(400) },
};

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('share image', () => {
  for (const [name, q] of Object.entries(CASES)) {
    it(`renders ${name} text as a 1200×630 PNG with every node inside the card`, async () => {
      const nodes: { left: number; top: number; width: number; height: number; type: string }[] = [];
      await renderCardSvg(answerCard({ ...profile, name: name === 'long' ? 'N'.repeat(200) : profile.name }, q), null, (node) =>
        nodes.push(node),
      );
      expect(nodes.length).toBeGreaterThan(5);
      for (const n of nodes) {
        expect(n.left, `${n.type} left`).toBeGreaterThanOrEqual(0);
        expect(n.top, `${n.type} top`).toBeGreaterThanOrEqual(0);
        expect(n.left + n.width, `${n.type} right edge`).toBeLessThanOrEqual(SHARE_IMAGE_WIDTH + 0.5);
        expect(n.top + n.height, `${n.type} bottom edge`).toBeLessThanOrEqual(SHARE_IMAGE_HEIGHT + 0.5);
      }
      const png = await renderCardPng(answerCard(profile, q), null);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(pngSize(png)).toEqual({ width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT });
      if (process.env.SHARE_IMAGE_DUMP) {
        mkdirSync(process.env.SHARE_IMAGE_DUMP, { recursive: true });
        writeFileSync(`${process.env.SHARE_IMAGE_DUMP}/${name}.png`, png);
      }
    });
  }

  it('draws different pixels for different answers, and a profile card', async () => {
    const [a, b, p] = await Promise.all([
      renderCardPng(answerCard(profile, CASES.latin), null),
      renderCardPng(answerCard(profile, { ...CASES.latin, question: 'Another question entirely?' }), null),
      renderCardPng(profileCard(profile), null),
    ]);
    expect(a.equals(b)).toBe(false);
    expect(pngSize(p)).toEqual({ width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT });
  });
});
