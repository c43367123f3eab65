import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { CSSProperties } from 'react';
import { QUES_BRAND, textOn, type Block, type Fact, type Letter } from './letter.js';

/*
 * The one layout of every Ques e-mail (ADR 0053): a header in the brand's colour with its initial and name, the
 * heading and the facts first, the body, one button, a footer. React escapes every text it renders, so names,
 * titles and answers arrive as text, never as markup. Inline styles only (what mail clients keep), no remote image or
 * font, at most 600 px wide and fluid below; the <style> block only darkens the page for clients that honour
 * `prefers-color-scheme` (the inline colours are explicit on every box, so a client that inverts colours by itself
 * keeps text and background paired).
 */

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const INK = '#111827';
const MUTED = '#4b5563';

const DARK_CSS = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .q-page, .q-page > table > tbody > tr > td { background-color: #0b0f19 !important; }
  .q-card { background-color: #111827 !important; }
  .q-ink { color: #f3f4f6 !important; }
  .q-muted { color: #d1d5db !important; }
  .q-foot { background-color: #0f172a !important; }
}`;

const text: CSSProperties = { color: INK, fontSize: '16px', lineHeight: '24px', margin: '0 0 16px' };
const small: CSSProperties = { color: MUTED, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px' };

function Header({ name, main }: { name: string; main: string }) {
  const ink = textOn(main);
  const initial = (Array.from(name.trim())[0] ?? 'Q').toUpperCase();
  return (
    <Section style={{ backgroundColor: main, padding: '20px 24px' }}>
      <table role="presentation" cellPadding={0} cellSpacing={0} style={{ borderCollapse: 'separate' }}>
        <tbody>
          <tr>
            <td style={{ width: '40px', height: '40px', borderRadius: '20px', border: `2px solid ${ink}`, textAlign: 'center', verticalAlign: 'middle', color: ink, fontSize: '18px', fontWeight: 700, fontFamily: FONT }}>
              {initial}
            </td>
            <td style={{ paddingLeft: '12px', color: ink, fontSize: '17px', fontWeight: 700, fontFamily: FONT }}>{name}</td>
          </tr>
        </tbody>
      </table>
    </Section>
  );
}

function Facts({ facts, light }: { facts: Fact[]; light: string }) {
  const ink = textOn(light);
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} width="100%" style={{ borderCollapse: 'collapse', backgroundColor: light, borderRadius: '8px', margin: '0 0 20px' }}>
      <tbody>
        {facts.map((fact, i) => (
          <tr key={i}>
            <td style={{ padding: '8px 12px', color: ink, fontSize: '14px', lineHeight: '20px', width: '38%', verticalAlign: 'top', fontFamily: FONT }}>{fact.label}</td>
            <td style={{ padding: '8px 12px', color: ink, fontSize: '15px', lineHeight: '20px', fontWeight: 600, verticalAlign: 'top', wordBreak: 'break-word', fontFamily: FONT }}>{fact.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BlockView({ block, main, light }: { block: Block; main: string; light: string }) {
  if (typeof block === 'string') return <Text className="q-ink" style={text}>{block}</Text>;
  if ('item' in block) {
    return (
      <Text className="q-ink" style={text}>
        {block.item}
        <br />
        <Link href={block.link.url} style={{ color: INK, fontWeight: 600, textDecoration: 'underline' }} className="q-ink">
          {block.link.label}
        </Link>
      </Text>
    );
  }
  return (
    <>
      {block.label ? <Text className="q-ink" style={{ ...text, fontWeight: 600, margin: '0 0 8px' }}>{block.label}</Text> : null}
      <Text style={{ ...text, color: textOn(light), backgroundColor: light, borderLeft: `4px solid ${main}`, padding: '12px 16px', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {block.quote}
      </Text>
    </>
  );
}

export function LetterView({ letter }: { letter: Letter }) {
  const brand = letter.brand ?? QUES_BRAND;
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{letter.heading}</title>
        <style>{DARK_CSS}</style>
      </Head>
      <Preview>{letter.preview}</Preview>
      <Body className="q-page" style={{ backgroundColor: '#f3f4f6', margin: 0, padding: '16px 0', fontFamily: FONT }}>
        <Container className="q-card" style={{ maxWidth: '600px', width: '100%', backgroundColor: '#ffffff', borderRadius: '12px', overflow: 'hidden' }}>
          <Header name={brand.name} main={brand.main} />
          <Section style={{ padding: '24px' }}>
            {letter.greeting ? <Text className="q-ink" style={text}>{letter.greeting}</Text> : null}
            <Heading as="h1" className="q-ink" style={{ color: INK, fontSize: '22px', lineHeight: '28px', margin: '0 0 16px', fontFamily: FONT }}>
              {letter.heading}
            </Heading>
            {letter.facts?.length ? <Facts facts={letter.facts} light={brand.light} /> : null}
            {(letter.body ?? []).map((block, i) => (
              <BlockView key={i} block={block} main={brand.main} light={brand.light} />
            ))}
            {letter.action ? (
              <Section style={{ padding: '8px 0 16px' }}>
                <Button href={letter.action.url} style={{ backgroundColor: brand.main, color: textOn(brand.main), fontSize: '16px', fontWeight: 600, borderRadius: '8px', padding: '12px 20px', textDecoration: 'none' }}>
                  {letter.action.label}
                </Button>
                <Text className="q-muted" style={{ ...small, margin: '12px 0 0', wordBreak: 'break-all' }}>
                  {letter.action.url}
                </Text>
              </Section>
            ) : null}
            {(letter.after ?? []).map((line, i) => (
              <Text key={i} className="q-muted" style={small}>{line}</Text>
            ))}
          </Section>
          <Section className="q-foot" style={{ backgroundColor: '#f9fafb', padding: '16px 24px' }}>
            {letter.footer ? <Text className="q-muted" style={small}>{letter.footer}</Text> : null}
            <Text className="q-muted" style={{ ...small, margin: 0 }}>Ques — ask anyone, pay only when they answer.</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The HTML part of `letter` (rendered once per message, when it is sent). */
export function renderLetterHtml(letter: Letter): Promise<string> {
  return render(<LetterView letter={letter} />);
}
