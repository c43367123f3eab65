import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './Avatar';

describe('Avatar', () => {
  it('gives an uploaded avatar its 80 × 80 box and both sizes identity stores, for the screen to pick', () => {
    render(
      <Avatar
        name="Ada"
        url="/images/avatars/0b6b1f5e-5d3c-4c61-9a51-7d0c8a1e2f01/abc123def.webp"
        size={80}
      />,
    );
    const img = screen.getByRole('img', { name: 'Ada' });
    expect(img).toHaveAttribute('width', '80');
    expect(img).toHaveAttribute('height', '80');
    const src = img.getAttribute('src')!;
    const version = /\?v=\d+$/.exec(src)![0];
    expect(img).toHaveAttribute(
      'srcset',
      `/images/avatars/0b6b1f5e-5d3c-4c61-9a51-7d0c8a1e2f01/abc123def-160.webp${version} 160w, /images/avatars/0b6b1f5e-5d3c-4c61-9a51-7d0c8a1e2f01/abc123def.webp${version} 512w`,
    );
    expect(img).toHaveAttribute('sizes', '80px');
  });

  it('has no srcset for the default image or an image identity did not make', () => {
    const { rerender } = render(<Avatar name="Ada" url="/images/user-image.png" size={80} />);
    expect(screen.getByRole('img')).not.toHaveAttribute('srcset');
    rerender(<Avatar name="Ada" url="/uploads/ada.png" size={80} />);
    expect(screen.getByRole('img')).not.toHaveAttribute('srcset');
    expect(screen.getByRole('img')).toHaveAttribute('width', '80');
  });
});
