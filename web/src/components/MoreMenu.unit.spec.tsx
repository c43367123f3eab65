import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { copyLinkItem, MoreMenu } from './MoreMenu';

function setup() {
  const report = vi.fn();
  render(
    <>
      <button type="button">Before</button>
      <MoreMenu label="More actions for this page" items={[copyLinkItem('https://ques.test/ask/ada'), { label: 'Report this profile', onSelect: report }]} />
      <button type="button">After</button>
    </>,
  );
  const button = screen.getByRole('button', { name: 'More actions for this page' });
  return { user: userEvent.setup(), button, report };
}

describe('the ⋯ menu of a public page', () => {
  it('opens from the keyboard into its first item, moves with the arrows, and Escape closes it back onto its button', async () => {
    const { user, button } = setup();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await user.tab();
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'More actions for this page' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(screen.getByRole('menuitem', { name: 'Copy link to this page' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Report this profile' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Copy link to this page' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Report this profile' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    // ArrowUp opens on the last item; Space toggles like a click.
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Report this profile' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await user.keyboard(' ');
    expect(screen.getByRole('menuitem', { name: 'Copy link to this page' })).toHaveFocus();
  });

  it('closes on Tab and on a press outside', async () => {
    const { user, button } = setup();
    await user.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.tab();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.click(button);
    await user.click(screen.getByRole('button', { name: 'Before' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('runs the chosen item with focus back on the button, and says when the link was copied', async () => {
    const { user, button, report } = setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Copy link to this page' }));
    expect(writeText).toHaveBeenCalledWith('https://ques.test/ask/ada');
    expect(await screen.findByRole('status')).toHaveTextContent('Link copied.');
    expect(button).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(report).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
